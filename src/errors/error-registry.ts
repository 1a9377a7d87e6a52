// The one registry of coded errors: every error the gateway answers is built here, with its status and OpenAI error type.

/** OpenAI-style error types used in the `error.type` field. */
export type ErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'permission_error'
  | 'not_found_error'
  | 'conflict_error'
  | 'rate_limit_error'
  | 'guardrail_error'
  | 'upstream_error'
  | 'timeout_error'
  | 'configuration_error'
  | 'api_error';

/** The JSON body of every error answer: `{"error": {message, type, code, param}}`. */
export interface ErrorBody {
  error: { message: string; type: string; code: string | null; param: string | null; [extra: string]: unknown };
}

/** Options accepted when raising a coded error. */
export interface GatewayErrorOptions {
  /** The request field the error is about, for example `models[0].provider`. */
  param?: string | null;
  /** The underlying error, kept for logs; never sent to clients. */
  cause?: unknown;
  /** Extra members merged into the `error` object of the answer (for example `processors`). */
  details?: Record<string, unknown>;
  /** Extra response headers, for example `Retry-After`. */
  headers?: Record<string, string>;
  /** Overrides the defined status, for errors that mirror an upstream status. */
  statusCode?: number;
  /**
   * The answer is one the gateway means to give, not a failure (a draining gateway's 503 to a readiness probe): the
   * error middleware answers it as any other but writes no error line for it.
   */
  expected?: boolean;
}

/** Marks gateway errors across copies of this module (a plugin's own copy of the package, or a second module instance). */
const GATEWAY_ERROR_BRAND = Symbol.for('gateway-service.GatewayError');

/** An error with a stable code, an HTTP status and an OpenAI error type. */
export class GatewayError extends Error {
  readonly code: string;
  readonly statusCode: number;
  readonly type: ErrorType;
  readonly param: string | null;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** See {@link GatewayErrorOptions.expected}. */
  readonly expected: boolean;

  constructor(code: string, statusCode: number, type: ErrorType, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'GatewayError';
    this.code = code;
    this.statusCode = options.statusCode ?? statusCode;
    this.type = type;
    this.param = options.param ?? null;
    this.details = options.details;
    this.headers = options.headers;
    this.expected = options.expected === true;
    Object.defineProperty(this, GATEWAY_ERROR_BRAND, { value: true });
  }

  /** True for gateway errors made by any copy of this class, so `instanceof` holds across module instances. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[GATEWAY_ERROR_BRAND] === true;
  }

  /** The error as the JSON body the gateway answers. */
  toJSON(): ErrorBody {
    return { error: { message: this.message, type: this.type, code: this.code, param: this.param, ...this.details } };
  }
}

/** A factory for one coded error; `%s` placeholders in the template take the arguments in order. */
export interface ErrorFactory {
  (args?: Array<string | number>, options?: GatewayErrorOptions): GatewayError;
  readonly code: string;
  readonly statusCode: number;
}

/**
 * Defines a coded error once. Every error the gateway raises is defined in {@link Errors}.
 * @example
 * const NotFound = createError('not_found', 'No %s named %s', 404, 'not_found_error');
 * throw NotFound(['route', 'chat']);
 */
export function createError(code: string, template: string, statusCode: number, type: ErrorType): ErrorFactory {
  const factory = (args: Array<string | number> = [], options: GatewayErrorOptions = {}): GatewayError => {
    let index = 0;
    const message = template.replace(/%s/g, () => String(args[index++] ?? ''));
    return new GatewayError(code, statusCode, type, message, options);
  };
  return Object.assign(factory, { code, statusCode });
}

/** A resource kind with its indefinite article, for the start of a message: `A route`, `An application`, `An API key`. */
function withArticle(kind: string): string {
  return `${/^[aeiouAEIOU]|^[FHLMNRSX][A-Z]/.test(kind) ? 'An' : 'A'} ${kind}`;
}

const alreadyExists = createError('already_exists', '%s named %s already exists.', 409, 'conflict_error');

/** Every coded error of the gateway. */
export const Errors = {
  // Request shape
  invalidJson: createError('invalid_json', 'The request body is not valid JSON: %s', 400, 'invalid_request_error'),
  bodyNotObject: createError('invalid_body', 'The request body must be a JSON object.', 400, 'invalid_request_error'),
  validation: createError('invalid_value', '%s', 400, 'invalid_request_error'),
  missingHeader: createError('missing_header', 'The header %s is required.', 400, 'invalid_request_error'),
  jsonTooDeep: createError('json_too_deep', 'The JSON nests objects and arrays deeper than %s levels.', 400, 'invalid_request_error'),
  bodyTooLarge: createError('body_too_large', 'The request body exceeds the limit of %s bytes.', 413, 'invalid_request_error'),
  unsupportedMediaType: createError('unsupported_media_type', 'The Content-Type must be application/json, got %s.', 415, 'invalid_request_error'),
  unsupportedMediaTypeFor: createError('unsupported_media_type', 'The Content-Type must be %s, got %s.', 415, 'invalid_request_error'),
  unsupportedContentEncoding: createError('unsupported_media_type', 'The Content-Encoding %s cannot be read here; send %s.', 415, 'invalid_request_error'),
  transferCodingNotImplemented: createError('not_implemented', 'The Transfer-Encoding %s is not implemented here: only chunked is. Send the body chunked or with a Content-Length, and compress it with Content-Encoding instead.', 501, 'invalid_request_error'),
  unsupportedCharset: createError('unsupported_media_type', 'The charset %s cannot be read; send UTF-8.', 415, 'invalid_request_error'),
  routeNotFound: createError('not_found', 'No endpoint %s %s.', 404, 'not_found_error'),
  headersTooLarge: createError('headers_too_large', 'The request line and headers exceed the server\'s limit of %s bytes.', 431, 'invalid_request_error'),
  malformedHttp: createError('malformed_request', 'The request is not valid HTTP/1.1 (%s).', 400, 'invalid_request_error'),
  requestTimeout: createError('request_timeout', 'The request was not received in time.', 408, 'timeout_error'),
  expectationFailed: createError('expectation_failed', 'The Expect header may only be 100-continue.', 417, 'invalid_request_error'),
  // Authentication and roles
  missingApiKey: createError('missing_api_key', 'The header %s is required.', 401, 'authentication_error'),
  invalidApiKey: createError('invalid_api_key', 'The key given in %s is not valid.', 401, 'authentication_error'),
  applicationForbidden: createError('application_forbidden', 'A developer key may only name its own application in %s.', 403, 'permission_error'),
  forbiddenRole: createError('insufficient_role', 'This operation needs the role %s; the key has the role %s.', 403, 'permission_error'),
  // Resources
  notFound: createError('not_found', 'No %s named %s exists.', 404, 'not_found_error'),
  alreadyExists: Object.assign(
    (args: Array<string | number> = [], options?: GatewayErrorOptions) => alreadyExists([withArticle(String(args[0] ?? '')), ...args.slice(1)], options),
    { code: alreadyExists.code, statusCode: alreadyExists.statusCode },
  ) as ErrorFactory,
  nameMismatch: createError('name_mismatch', 'The body names %s, but the path names %s.', 400, 'invalid_request_error'),
  // Plugins and configuration
  pluginDuplicate: createError('plugin_duplicate', 'A plugin named %s is already registered.', 500, 'configuration_error'),
  pluginDependency: createError('plugin_dependency_missing', 'The plugin %s depends on %s, which is not registered.', 500, 'configuration_error'),
  pluginInvalid: createError('plugin_invalid', 'The plugin is not valid: %s', 500, 'configuration_error'),
  configInvalid: createError('config_invalid', 'The gateway options are not valid: %s', 500, 'configuration_error'),
  // Storage and secrets
  storageKeyInvalid: createError('storage_key_invalid', 'A name in this request is not allowed: %s.', 400, 'invalid_request_error'),
  storageCorrupt: createError('storage_corrupt', 'The storage file %s is corrupt: %s. Restore it from a backup or remove it; the gateway does not reset data on its own.', 500, 'api_error'),
  storageClosed: createError('storage_closed', 'The storage adapter is closed.', 500, 'api_error'),
  storageUnavailable: createError('storage_unavailable', 'The storage backend is unreachable (%s); retry shortly.', 503, 'api_error'),
  storageBusy: createError('storage_busy', 'Another gateway replica is writing the same record and did not finish within %s ms; retry shortly.', 503, 'api_error'),
  secretUnavailable: createError('secret_unavailable', 'A stored secret is encrypted but %s.', 500, 'configuration_error'),
  // Provider adapters
  unsupportedEndpoint: createError('unsupported_endpoint', 'The provider type %s does not support the %s endpoint.', 400, 'invalid_request_error'),
  tokenCountUnsupported: createError('unsupported_endpoint', 'The route %s sends this model to provider %s of type %s, which cannot count tokens: POST /v1/messages/count_tokens is served when the route\'s chosen model is on an Anthropic or Gemini provider.', 400, 'invalid_request_error'),
  providerMisconfigured: createError('provider_misconfigured', 'The provider %s is misconfigured: %s', 500, 'configuration_error'),
  upstreamInvalidResponse: createError('upstream_invalid_response', 'The upstream provider sent an answer the gateway cannot read: %s', 502, 'upstream_error'),
  upstreamStreamError: createError('upstream_stream_error', 'The upstream provider %s reported an error: %s', 502, 'upstream_error'),
  // The same code as an unreadable answer, so it is retried and falls back as one: the model failed, not the request.
  upstreamModelFailed: createError('upstream_invalid_response', 'The model of provider %s did not finish its answer: %s', 502, 'upstream_error'),
  // Model traffic
  applicationDisabled: createError('application_disabled', 'The application %s is disabled or no longer exists.', 403, 'permission_error'),
  routeDisabled: createError('route_disabled', 'The route %s is disabled.', 403, 'permission_error'),
  routeTypeMismatch: createError('route_type_mismatch', 'The route %s is for %s requests, not %s.', 400, 'invalid_request_error'),
  unknownModel: createError('unknown_model', 'No enabled provider serves the model %s: name it as provider/model, or list it in a provider\'s config.models.', 400, 'invalid_request_error'),
  noProviderAvailable: createError('no_provider_available', 'No enabled provider is available on route %s.', 503, 'upstream_error'),
  providerKeyUnavailable: createError('provider_key_unavailable', 'The provider key %s of provider %s does not exist or is disabled.', 500, 'configuration_error'),
  rateLimited: createError('rate_limit_exceeded', 'The route %s allows %s requests per second; retry after %s second(s).', 429, 'rate_limit_error'),
  budgetExceeded: createError('budget_exceeded', 'The budget of %s (%s USD per %s) is spent; it resets at %s.', 429, 'rate_limit_error'),
  callerRateLimited: createError('rate_limit_exceeded', 'The %s allows %s %s per minute; retry after %s second(s).', 429, 'rate_limit_error'),
  rateLimiterUnavailable: createError('rate_limiter_unavailable', 'The shared rate limit of route %s cannot be checked (Redis: %s) and rate limits fail closed; retry shortly.', 503, 'api_error'),
  upstreamUnreachable: createError('upstream_unreachable', 'The provider %s could not be reached: %s', 502, 'upstream_error'),
  upstreamTimeout: createError('upstream_timeout', 'The provider %s did not answer within %s ms.', 504, 'timeout_error'),
  upstreamFailed: createError('upstream_error', '%s', 502, 'upstream_error'),
  // Nothing reads it (the client is gone): it ends a request whose client left without blaming the provider for it.
  clientDisconnected: createError('client_disconnected', 'The client disconnected before the answer ended.', 499, 'invalid_request_error'),
  upstreamRedirect: createError('upstream_redirect', 'The provider %s answered %s (a redirect), which the gateway does not follow: check its api_base.', 502, 'upstream_error'),
  // Guardrails on traffic
  guardrailRejected: createError('guardrail_rejected', 'The %s was rejected by %s: %s.', 400, 'guardrail_error'),
  guardrailUnavailable: createError('guardrail_unavailable', 'The guardrail %s could not run (%s) and the policy fails closed.', 503, 'guardrail_error'),
  guardrailTransformFailed: createError('guardrail_transform_failed', 'The guardrail %s could not transform the streamed answer (%s), so the rest of it is withheld.', 503, 'guardrail_error'),
  // MCP registries
  mcpUpstreamUnreachable: createError('mcp_upstream_unreachable', 'The tool server of registry %s could not be reached: %s', 502, 'upstream_error'),
  mcpUpstreamTimeout: createError('mcp_upstream_timeout', 'The tool server of registry %s did not send its answer in time: %s.', 504, 'timeout_error'),
  mcpResponseTooLarge: createError('mcp_response_too_large', 'The tool server of registry %s sent an answer over the limit of %s bytes.', 502, 'upstream_error'),
  mcpUpstreamInvalidResponse: createError('upstream_invalid_response', 'The tool server of registry %s sent an answer the gateway cannot read: %s.', 502, 'upstream_error'),
  mcpSessionNotFound: createError('mcp_session_not_found', 'No MCP session with this Mcp-Session-Id exists at registry %s for this application; start a new one with initialize.', 404, 'not_found_error'),
  mcpToolNotFound: createError('tool_not_found', 'The registry %s has no tool named %s.', 404, 'not_found_error'),
  mcpRegistryNotDeleted: createError('mcp_registry_not_deleted', 'The MCP registry %s was not deleted: a storage write failed, and the registry and its tool pins are as they were. Retry the delete.', 500, 'api_error'),
  mcpRegistryDeleteIncomplete: createError('mcp_registry_delete_incomplete', 'The MCP registry %s is deleted, but a storage write failed before all of its tool pins and policies were removed: nothing serves the registry, and what is left is removed when a registry of that name is created and at the next start.', 500, 'api_error'),
  // Probes
  notReady: createError('not_ready', 'The gateway is not ready: %s.', 503, 'api_error'),
  // Admin console
  consoleNotBuilt: createError('console_not_built', 'The admin console assets are missing (%s); run npm run build:console.', 503, 'api_error'),
  internal: createError('internal_error', 'The gateway failed to handle the request.', 500, 'api_error'),
} as const;

/** True when the value is a {@link GatewayError}. */
export function isGatewayError(value: unknown): value is GatewayError {
  return value instanceof GatewayError;
}
