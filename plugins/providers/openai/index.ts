// The OpenAI provider adapter: OpenAI itself and any OpenAI-compatible API reached through `config.api_base`.
import { defineProvider } from '../../../src/plugins/plugin-api.js';
import { commonErrorMessage } from '../shared/openai-chunks.js';
import { openaiHeaders, openaiUrl } from './api.js';
import { openaiBody } from './request.js';
import { bodyHeaders } from '../shared/form-body.js';

/**
 * Speaks OpenAI's wire format, so answers and streams pass through unchanged.
 * Provider `config`: `api_base` (default `https://api.openai.com/v1`), `organization`, `project`, `max_tokens_field`
 * (where a /v1/messages request's length limit goes; see tokenLimitField).
 * @example
 * const request = openai.buildRequest({ endpoint: 'chat', model: 'gpt-4o-mini', stream: false, body, provider, apiKey: { value: 'sk-…' } });
 */
export default defineProvider({
  name: 'openai',
  description: 'OpenAI and OpenAI-compatible APIs (Mistral, Groq, Together, Ollama, vLLM) through config.api_base.',
  openaiCompatible: true,
  buildRequest(context) {
    const { url, headers } = openaiHeaders(context, openaiUrl(context));
    const body = openaiBody(context);
    return { url, method: 'POST', headers: bodyHeaders(context, headers, body), body };
  },
  errorMessage: (_status, body) => commonErrorMessage(body),
});
