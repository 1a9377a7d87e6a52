// JSON Schema of a gateway.yaml file, built from the admin API's own resource schemas so a file and a request are checked alike.
import { applicationSchema, providerSchema, routeSchema } from '../admin/schemas/resource-schemas.js';
import { policySchema } from '../admin/schemas/policy-schema.js';
import { registrySchema } from '../mcp/registry-records.js';
import { registryPoliciesSchema } from '../mcp/registry-policies.js';

const portSchema = {
  anyOf: [
    { type: 'integer', minimum: 0, maximum: 65535 },
    { type: 'string', pattern: '^[0-9]{1,5}$' },
  ],
} as const;

/** A switch: a boolean, or `"true"`/`"false"` (what a `${VAR}` reference gives). */
const switchSchema = { enum: [true, false, 'true', 'false'] } as const;

/** More admin keys (`GATEWAY_ADMIN_KEYS`): each `{key, role, name?}`. */
const adminKeysSchema = {
  type: 'array',
  maxItems: 100,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['key', 'role'],
    properties: { key: { type: 'string', minLength: 16 }, role: { enum: ['viewer', 'admin', 'super_admin'] }, name: { type: 'string', minLength: 1, maxLength: 256 } },
  },
} as const;

/** The `server` section: how the gateway server listens and stores; each key stands for one environment variable. */
export const serverSectionSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    host: { type: 'string', minLength: 1 },
    port: portSchema,
    admin_key: { type: 'string', minLength: 16 },
    secret: { type: 'string', minLength: 1 },
    data_dir: { type: 'string', minLength: 1 },
    database_url: { type: 'string', pattern: '^postgres(ql)?://' },
    database_schema: { type: 'string', minLength: 1 },
    redis_url: { type: 'string', pattern: '^rediss?://' },
    redis_key_prefix: { type: 'string', minLength: 1, maxLength: 256 },
    base_url: { type: 'string', format: 'uri', pattern: '^https?://' },
    admin_keys: adminKeysSchema,
    log_level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    log_requests: switchSchema,
    metrics: switchSchema,
    metrics_token: { type: 'string', minLength: 16 },
    drain_seconds: { anyOf: [{ type: 'number', minimum: 0, maximum: 3600 }, { type: 'string', pattern: '^[0-9]{1,4}(\\.[0-9]+)?$' }] },
    stop_timeout_seconds: { anyOf: [{ type: 'number', minimum: 1, maximum: 3600 }, { type: 'string', pattern: '^[0-9]{1,4}(\\.[0-9]+)?$' }] },
    chronicles_max_pending: { anyOf: [{ type: 'integer', minimum: 1 }, { type: 'string', pattern: '^[1-9][0-9]{0,8}$' }] },
  },
} as const;

/** Each `server` key and the environment variable the example server reads it from. */
export const SERVER_ENV: Readonly<Record<keyof typeof serverSectionSchema.properties, string>> = {
  host: 'HOST',
  port: 'PORT',
  admin_key: 'GATEWAY_ADMIN_KEY',
  secret: 'GATEWAY_SECRET',
  data_dir: 'GATEWAY_DATA_DIR',
  database_url: 'GATEWAY_DATABASE_URL',
  database_schema: 'GATEWAY_DATABASE_SCHEMA',
  redis_url: 'GATEWAY_REDIS_URL',
  redis_key_prefix: 'GATEWAY_REDIS_KEY_PREFIX',
  base_url: 'GATEWAY_BASE_URL',
  admin_keys: 'GATEWAY_ADMIN_KEYS',
  log_level: 'LOG_LEVEL',
  log_requests: 'GATEWAY_LOG_REQUESTS',
  metrics: 'GATEWAY_METRICS',
  metrics_token: 'GATEWAY_METRICS_TOKEN',
  drain_seconds: 'GATEWAY_DRAIN_SECONDS',
  stop_timeout_seconds: 'GATEWAY_STOP_TIMEOUT_SECONDS',
  chronicles_max_pending: 'GATEWAY_CHRONICLES_MAX_PENDING',
};

/** An application with its guardrail policy. */
const applicationWithPolicySchema = {
  ...applicationSchema,
  properties: { ...applicationSchema.properties, policy: policySchema },
} as const;

/** An MCP registry with its tool-result policies. */
const registryWithPoliciesSchema = {
  ...registrySchema,
  properties: { ...registrySchema.properties, policies: registryPoliciesSchema },
} as const;

/** A whole gateway.yaml file. */
export const gatewayConfigSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    server: serverSectionSchema,
    plugins: { type: 'array', items: { type: 'string', minLength: 1 }, maxItems: 100 },
    providers: { type: 'array', items: providerSchema },
    routes: { type: 'array', items: routeSchema },
    applications: { type: 'array', items: applicationWithPolicySchema },
    registries: { type: 'array', items: registryWithPoliciesSchema },
  },
} as const;

/** A gateway.yaml file as validated: each resource item is the body its admin endpoint takes. */
export interface GatewayConfig {
  /** Strings, numbers and switches; `admin_keys` is a list of `{key, role, name?}`. */
  server?: Partial<Record<keyof typeof SERVER_ENV, string | number | boolean | Array<Record<string, string>>>>;
  plugins?: string[];
  providers?: Array<Record<string, unknown>>;
  routes?: Array<Record<string, unknown>>;
  applications?: Array<Record<string, unknown> & { policy?: Record<string, unknown> }>;
  registries?: Array<Record<string, unknown> & { policies?: Record<string, unknown> }>;
}
