// The plugin API: what a guardrail, provider or storage plugin imports. It imports no built-in plugin, so plugins never import in a circle.
export * from './plugin-types.js';
export { GatewayError, Errors, createError, isGatewayError } from '../errors/error-registry.js';
export type { ErrorBody, ErrorType, GatewayErrorOptions, ErrorFactory } from '../errors/error-registry.js';
