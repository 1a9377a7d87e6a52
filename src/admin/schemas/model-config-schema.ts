// JSON Schema of one element of a `models` array (route and template model configuration).

import { requiredShortTextSchema, shortTextSchema } from './common-schemas.js';

/** The largest model weight: weights are relative, and a bound keeps their sum finite (the weighted choice needs it). */
export const MAX_MODEL_WEIGHT = 1_000_000;

/** The most models a route or template lists. */
export const MAX_ROUTE_MODELS = 256;

/** One model of a route or template: name, provider, weight, fallback. */
export const modelConfigSchema = {
  type: 'object',
  required: ['name', 'provider'],
  additionalProperties: false,
  properties: {
    name: requiredShortTextSchema,
    provider: requiredShortTextSchema,
    suffix: shortTextSchema,
    weight: { type: 'number', minimum: 0, maximum: MAX_MODEL_WEIGHT, default: 1 },
    fallback_enabled: { type: 'boolean', default: false },
    fallback_codes: { type: 'array', items: { type: 'integer', minimum: 100, maximum: 599 }, maxItems: 500, default: [] },
    virtual_secret_key: requiredShortTextSchema,
  },
} as const;
