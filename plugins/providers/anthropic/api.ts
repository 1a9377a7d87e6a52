// Anthropic's URL and headers: the Messages API under the base, `x-api-key` and `anthropic-version`.
import type { ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { baseUrl, configString, joinUrl, jsonHeaders, placeApiKey } from '../shared/upstream-url.js';
import { anthropicBetaHeader } from './client-betas.js';

/** The default base URL; `config.api_base` replaces it. */
export const ANTHROPIC_BASE = 'https://api.anthropic.com';
/** The API version sent when `config.anthropic_version` is not set. */
export const ANTHROPIC_VERSION = '2023-06-01';

/** `{base}/v1/messages`, or `{base}/{suffix}` when the model sets a suffix. */
export function anthropicUrl(context: ProviderRequestContext): string {
  return joinUrl(baseUrl(context, ANTHROPIC_BASE), context.suffix || '/v1/messages');
}

/** Token counting's URL: `{base}/v1/messages/count_tokens`, or `{base}/{suffix}/count_tokens` when the model sets a suffix. */
export function anthropicCountUrl(context: ProviderRequestContext): string {
  return joinUrl(anthropicUrl(context), 'count_tokens');
}

/**
 * The headers, and the URL once the key is placed: `x-api-key: <key>` unless the key record says
 * otherwise, `anthropic-version`, and `anthropic-beta`: `config.anthropic_beta` with the client's betas the provider
 * allows (see anthropicBetaHeader), when there is any.
 */
export function anthropicHeaders(context: ProviderRequestContext, url: string): { url: string; headers: Record<string, string> } {
  const headers = jsonHeaders(context.stream);
  headers['anthropic-version'] = configString(context, 'anthropic_version') ?? ANTHROPIC_VERSION;
  const beta = anthropicBetaHeader(context);
  if (beta) headers['anthropic-beta'] = beta;
  return { url: placeApiKey(url, headers, context.apiKey, { header: 'x-api-key' }), headers };
}
