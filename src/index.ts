// Public API of the gateway package: createGateway, the plugin and storage helpers, and the error registry.
export * from './plugins/plugin-types.js';
export * from './storage/storage-adapter.js';
export { memoryStorage } from './storage/memory-storage.js';
export { GatewayError, Errors, createError, isGatewayError } from './errors/error-registry.js';
export type { ErrorBody, ErrorType, GatewayErrorOptions, ErrorFactory } from './errors/error-registry.js';
export { GuardrailEngine } from './guardrails/guardrail-engine.js';
export type { EvaluateOptions } from './guardrails/guardrail-engine.js';
