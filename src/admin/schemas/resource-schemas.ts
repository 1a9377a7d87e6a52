// JSON Schemas of the admin resources, following the spec's field tables; compiled once by the admin router.
import { descriptionSchema, nameSchema, objectSchema, requiredShortTextSchema, serverSetFields, shortTextSchema, urlSchema } from './common-schemas.js';
import { routeCacheSchema } from './cache-schema.js';
import { MAX_ROUTE_MODELS, modelConfigSchema } from './model-config-schema.js';
import { routePolicySchema } from './policy-schema.js';
import { usageControlFields } from '../../usage/usage-schemas.js';
import { headerSecretSchema, MAX_PARAMETER_NAME_LENGTH } from '../../validation/header-safe-text.js';

/** The highest route `rate_limit`, in requests per second (0 is unlimited). */
export const MAX_ROUTE_RATE_LIMIT = 1_000_000;

/** The longest route `timeout_ms`: 10 minutes. */
export const MAX_ROUTE_TIMEOUT_MS = 600_000;

/** The most `retries` a route makes. */
export const MAX_ROUTE_RETRIES = 10;

/** A template. */
export const templateSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: nameSchema,
    type: shortTextSchema,
    description: descriptionSchema,
    enabled: { type: 'boolean', default: true },
    config: { ...objectSchema, default: {} },
    models: { type: 'array', items: modelConfigSchema, maxItems: MAX_ROUTE_MODELS, default: [] },
    ...serverSetFields,
  },
} as const;

/** A gateway record. */
export const gatewaySchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    gateway_id: requiredShortTextSchema,
    name: nameSchema,
    type: shortTextSchema,
    enabled: { type: 'boolean', default: true },
    config: { ...objectSchema, default: {} },
    ...serverSetFields,
  },
} as const;

/**
 * A provider API key, as the key endpoints and a provider's `api_keys` accept it. The secrets are bounded and hold only
 * characters a header can carry, and the header or query parameter name is bounded: a value stored otherwise would
 * make every call with the key fail (502 or 431).
 */
export const providerKeySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    api_key: headerSecretSchema,
    api_key_secret_key: { ...headerSecretSchema, minLength: 0 },
    api_key_secret_key_gateway: shortTextSchema,
    api_key_secret_name: nameSchema,
    enabled: { type: 'boolean', default: true },
    group: shortTextSchema,
    header_key: { type: 'string', maxLength: MAX_PARAMETER_NAME_LENGTH, pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" },
    query_param_key: { type: 'string', minLength: 1, maxLength: MAX_PARAMETER_NAME_LENGTH },
    organization: shortTextSchema,
    provider_name: shortTextSchema,
    namespace: shortTextSchema,
    ...serverSetFields,
  },
} as const;

/** A provider. */
export const providerSchema = {
  type: 'object',
  required: ['name', 'type'],
  additionalProperties: false,
  properties: {
    name: nameSchema,
    type: requiredShortTextSchema,
    enabled: { type: 'boolean', default: true },
    vault_enabled: { type: 'boolean', default: false },
    config: {
      type: 'object',
      default: {},
      properties: {
        api_base: urlSchema,
        models: { type: 'array', items: requiredShortTextSchema, maxItems: 10_000 },
      },
    },
    api_keys: { type: 'array', items: { ...providerKeySchema, required: ['api_key'] }, maxItems: 256 },
    ...serverSetFields,
  },
} as const;

/** A route, unified (only `name`) or custom (`type` and `models`). */
export const routeSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: nameSchema,
    type: requiredShortTextSchema,
    models: { type: 'array', items: modelConfigSchema, minItems: 1, maxItems: MAX_ROUTE_MODELS },
    enabled: { type: 'boolean', default: true },
    config: {
      type: 'object',
      default: {},
      properties: {
        settings: {
          type: 'object',
          default: {},
          properties: {
            rate_limit: { type: 'number', minimum: 0, maximum: MAX_ROUTE_RATE_LIMIT, default: 0 },
            retries: { type: 'integer', minimum: 0, maximum: MAX_ROUTE_RETRIES, default: 1 },
            timeout_ms: { type: 'integer', minimum: 1, maximum: MAX_ROUTE_TIMEOUT_MS },
          },
        },
        team: {
          type: 'object',
          default: {},
          properties: { owner: shortTextSchema, organization: shortTextSchema },
        },
        policy: routePolicySchema,
        cache: routeCacheSchema,
      },
    },
    ...serverSetFields,
  },
  dependencies: { models: ['type'], type: ['models'] },
} as const;

/** An application, whose requests are recorded under its name. */
export const applicationSchema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: nameSchema,
    description: descriptionSchema,
    enabled: { type: 'boolean', default: true },
    ...usageControlFields,
    ...serverSetFields,
  },
} as const;
