// JSON Schema of a route's `config.cache`: the response cache's time to live and switch.

/** Longest time to live of a cached answer: 30 days. */
export const MAX_CACHE_TTL_SECONDS = 30 * 24 * 3600;

/** `config.cache` of a route: answers are cached for `ttl_seconds` while it is present and `enabled` is not false. */
export const routeCacheSchema = {
  type: 'object',
  required: ['ttl_seconds'],
  additionalProperties: false,
  properties: {
    ttl_seconds: { type: 'integer', minimum: 1, maximum: MAX_CACHE_TTL_SECONDS },
    enabled: { type: 'boolean', default: true },
  },
} as const;
