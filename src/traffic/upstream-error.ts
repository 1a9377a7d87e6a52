// Turns a failed upstream answer into the gateway's error: the upstream status, with its message in OpenAI's error shape.
import { GatewayError } from '../errors/error-registry.js';
import type { ProviderPlugin } from '../plugins/plugin-types.js';
import { maskSecret } from '../secrets/mask-secret.js';
import { scrubSecrets } from '../secrets/secret-scrubber.js';

/** The largest upstream error body read, in bytes. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

interface UpstreamErrorObject {
  message?: unknown;
  type?: unknown;
  code?: unknown;
  param?: unknown;
}

/**
 * Builds the error answered for an upstream failure. An OpenAI-shaped error body keeps its message,
 * type, code and param; any other body is summarised by the adapter's `errorMessage` or its text. The upstream's
 * Retry-After (`retryAfterMs`, parsed) is answered as whole seconds, so a client backs off as the provider asked.
 */
export function upstreamError(status: number, rawText: string, adapter: ProviderPlugin, providerName: string, secret?: string, retryAfterMs?: number): GatewayError {
  const headers = retryAfterMs === undefined ? undefined : { 'retry-after': String(Math.ceil(retryAfterMs / 1000)) };
  // An upstream may echo the key it was sent, in any case or encoding; it must not reach the client or the log.
  const text = maskProviderKey(rawText, secret);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const inner = (parsed as { error?: UpstreamErrorObject } | undefined)?.error;
  if (inner && typeof inner === 'object' && typeof inner.message === 'string') {
    return new GatewayError(
      typeof inner.code === 'string' ? inner.code : 'upstream_error',
      status,
      'upstream_error',
      inner.message,
      { param: typeof inner.param === 'string' ? inner.param : null, details: typeof inner.type === 'string' ? { upstream_type: inner.type } : undefined, headers },
    );
  }
  const message = adapter.errorMessage?.(status, parsed ?? text) ?? (text.trim().slice(0, 500) || `HTTP ${status}`);
  return new GatewayError('upstream_error', status, 'upstream_error', `The provider ${providerName} answered ${status}: ${message}`, { headers });
}

/** `text` with every form of the provider key `secret` (any letter case, base64, URL, hex) replaced by its mask. */
export function maskProviderKey(text: string, secret: string | undefined): string {
  return secret ? scrubSecrets(text, [secret], maskSecret(secret)) : text;
}

/**
 * The error with every form of the provider key `secret` in its message masked, as {@link upstreamError} masks it;
 * the same error when the message holds none. For errors built from an upstream's answer after its status was 200
 * (a stream's error event, an excerpt of an event that is not JSON, an adapter's translation failure).
 */
export function withoutProviderKey(error: GatewayError, secret: string | undefined): GatewayError {
  const message = maskProviderKey(error.message, secret);
  if (message === error.message) return error;
  return new GatewayError(error.code, error.statusCode, error.type, message, { param: error.param, details: error.details, headers: error.headers, cause: error.cause });
}
