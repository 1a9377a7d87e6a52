// JSON Schemas of budgets, per-minute limits and prices, as the application, developer-key and price admin endpoints accept them.

/** A budget: USD per day, week or month, with the share of it at which a warning is logged. */
export const budgetSchema = {
  type: 'object',
  required: ['amount_usd', 'period'],
  additionalProperties: false,
  properties: {
    amount_usd: { type: 'number', exclusiveMinimum: 0, maximum: 1e9 },
    period: { enum: ['day', 'week', 'month'] },
    alert_threshold: { type: 'number', exclusiveMinimum: 0, maximum: 1, default: 0.8 },
  },
} as const;

/** Requests and tokens per minute, besides each route's rate. */
export const limitsSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    requests_per_minute: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    tokens_per_minute: { type: 'integer', minimum: 1, maximum: 1_000_000_000 },
  },
} as const;

/** A budget and limits, as fields of an application or a developer key. */
export const usageControlFields = { budget: budgetSchema, limits: limitsSchema } as const;

/** The stored form of {@link budgetSchema}. */
export interface Budget {
  amount_usd: number;
  period: 'day' | 'week' | 'month';
  alert_threshold?: number;
}

/** The stored form of {@link limitsSchema}. */
export interface CallerLimitSettings {
  requests_per_minute?: number;
  tokens_per_minute?: number;
}

/** A developer key's settings, as POST and PUT on a key accept them. */
export const developerKeySettingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { name: { type: 'string', maxLength: 200 }, ...usageControlFields },
} as const;

const priceSchema = {
  type: 'object',
  required: ['input', 'output'],
  additionalProperties: false,
  properties: {
    input: { type: 'number', minimum: 0, maximum: 1e6 },
    output: { type: 'number', minimum: 0, maximum: 1e6 },
    cached_input: { type: 'number', minimum: 0, maximum: 1e6 },
    cache_write_input: { type: 'number', minimum: 0, maximum: 1e6 },
    cache_write_1h_input: { type: 'number', minimum: 0, maximum: 1e6 },
  },
} as const;

/** PUT /v1/admin/prices/:type: prices to set, or null to drop an override (the default applies again). */
export const priceOverridesSchema = {
  type: 'object',
  required: ['models'],
  additionalProperties: false,
  properties: {
    models: {
      type: 'object',
      minProperties: 1,
      maxProperties: 1000,
      propertyNames: { pattern: '^[A-Za-z0-9][A-Za-z0-9_.:@/+-]{0,199}$' },
      additionalProperties: { anyOf: [priceSchema, { type: 'null' }] },
    },
  },
} as const;
