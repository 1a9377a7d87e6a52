// Public API of the gateway package: createGateway, the plugin and storage helpers, and the error registry.
export { createGateway } from './create-gateway.js';
export type { Gateway, GatewayOptions } from './gateway-options.js';
export type { GatewayRedisOptions } from './redis/redis-options.js';
export type { ResponseCacheOptions } from './cache/response-cache-store.js';
export type { AdminKeyConfig, AdminRole } from './admin/admin-auth.js';
export type { GuardrailPolicy, RoutePolicy, PolicyProcessorEntry } from './admin/policy-validation.js';
export * from './plugins/plugin-api.js';
export * from './storage/storage-adapter.js';
export { memoryStorage } from './storage/memory-storage.js';
export { fileStorage } from './storage/file-storage.js';
export { postgresStorage, type PostgresStorageOptions } from './storage/postgres-storage.js';
export { Storage } from './storage/storage-facade.js';
export { GatewayError, Errors, createError, isGatewayError } from './errors/error-registry.js';
export type { ErrorBody, ErrorType, GatewayErrorOptions, ErrorFactory } from './errors/error-registry.js';
export { errorMiddleware, notFoundHandler } from './errors/error-middleware.js';
export type { GatewayLogger } from './errors/error-middleware.js';
export { GuardrailEngine } from './guardrails/guardrail-engine.js';
export type { EvaluateOptions } from './guardrails/guardrail-engine.js';
