// OpenAI's URL and headers: the endpoint path (or the model's suffix) under the base, and where the key goes.
import type { ModelEndpoint, ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { baseUrl, configString, joinUrl, jsonHeaders, placeApiKey } from '../shared/upstream-url.js';

/** The default base URL; `config.api_base` replaces it (Mistral, Groq, Together, Ollama, vLLM, a fake). */
export const OPENAI_BASE = 'https://api.openai.com/v1';

/** The path under the base of each endpoint. */
export const OPENAI_PATHS: Record<ModelEndpoint, string> = {
  chat: '/chat/completions',
  completions: '/completions',
  embeddings: '/embeddings',
};

/**
 * The upstream URL: `{base}{path}`, where `path` is the endpoint's path, or the model's `suffix` when
 * the route sets one. The suffix replaces the whole endpoint path, not just its last segment: with
 * base `https://h/v1` and suffix `chat` (or `/chat`) the URL is `https://h/v1/chat`; a suffix may carry
 * its own query string (`chat?mode=x`). The key's query parameter, if any, is added after.
 */
export function openaiUrl(context: ProviderRequestContext): string {
  return joinUrl(baseUrl(context, OPENAI_BASE), context.suffix || OPENAI_PATHS[context.endpoint]);
}

/**
 * The headers, and the final URL once the key is placed: `authorization: Bearer <key>` by default,
 * the raw key in `apiKey.headerKey`, or the `apiKey.queryParamKey` query parameter;
 * `config.organization` → `openai-organization`, `config.project` → `openai-project`.
 */
export function openaiHeaders(context: ProviderRequestContext, url: string): { url: string; headers: Record<string, string> } {
  const headers = jsonHeaders(context.stream);
  const organization = configString(context, 'organization');
  if (organization) headers['openai-organization'] = organization;
  const project = configString(context, 'project');
  if (project) headers['openai-project'] = project;
  const finalUrl = placeApiKey(url, headers, context.apiKey, { header: 'authorization', prefix: 'Bearer ' });
  return { url: finalUrl, headers };
}
