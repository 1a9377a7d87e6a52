// Gemini's URL and headers: `models/{model}:{method}` under the API version, and `x-goog-api-key` or `?key=`.
import { Errors, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { baseUrl, configString, joinUrl, jsonHeaders, pathSegment, placeApiKey, withQuery } from '../shared/upstream-url.js';

/** The default base URL; `config.api_base` replaces it. */
export const GEMINI_BASE = 'https://generativelanguage.googleapis.com';
/** The API version in the path when `config.api_version` is not set. */
export const GEMINI_API_VERSION = 'v1beta';

/** The model name without a leading `models/`. */
export function geminiModel(context: ProviderRequestContext): string {
  return context.model.replace(/^models\//, '');
}

/** The method of the endpoint: `generateContent`, `streamGenerateContent` or `batchEmbedContents`. */
function geminiMethod(context: ProviderRequestContext): string {
  if (context.endpoint === 'embeddings') return 'batchEmbedContents';
  return context.stream ? 'streamGenerateContent' : 'generateContent';
}

/**
 * `{base}/{api_version}/models/{model}:{method}`, with `?alt=sse` when streaming. A model `suffix`
 * replaces everything after the base (`alt=sse` is still added when streaming). A model name that would
 * change the path (`..`, `/`, `%2F`) is 400.
 */
export function geminiUrl(context: ProviderRequestContext): string {
  const version = configString(context, 'api_version') ?? GEMINI_API_VERSION;
  const path = context.suffix || `${version}/models/${pathSegment(geminiModel(context))}:${geminiMethod(context)}`;
  const url = joinUrl(baseUrl(context, GEMINI_BASE), path);
  return context.stream && context.endpoint === 'chat' ? withQuery(url, { alt: 'sse' }) : url;
}

/**
 * Token counting's URL: `{base}/{api_version}/models/{model}:countTokens`. A model with a `suffix` (a server of its own
 * paths) has no known counting path: 400 `unsupported_endpoint`.
 */
export function geminiCountUrl(context: ProviderRequestContext): string {
  if (context.suffix) throw Errors.unsupportedEndpoint(['gemini (with a model suffix)', 'count_tokens']);
  const version = configString(context, 'api_version') ?? GEMINI_API_VERSION;
  return joinUrl(baseUrl(context, GEMINI_BASE), `${version}/models/${pathSegment(geminiModel(context))}:countTokens`);
}

/**
 * The headers, and the URL once the key is placed: `x-goog-api-key: <key>` by default, or the key as
 * the query parameter named by `apiKey.queryParamKey` (Google's own name for it is `key`).
 */
export function geminiHeaders(context: ProviderRequestContext, url: string): { url: string; headers: Record<string, string> } {
  const headers = jsonHeaders(context.stream);
  return { url: placeApiKey(url, headers, context.apiKey, { header: 'x-goog-api-key' }), headers };
}
