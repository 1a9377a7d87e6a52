// The Gemini provider adapter: OpenAI chat completions and embeddings over the Gemini API, translated both ways.
import { Errors, defineProvider } from '../../../src/plugins/plugin-api.js';
import { geminiHeaders, geminiUrl } from './api.js';
import { geminiEmbeddingsBody, translateGeminiEmbeddings } from './embeddings.js';
import { geminiChatBody } from './request.js';
import { geminiErrorMessage, geminiRetryAfterMs, translateGeminiChat } from './response.js';
import { createGeminiStreamTranslator } from './stream.js';

/**
 * Google's Gemini API (generativelanguage.googleapis.com). Chat and embeddings; the other endpoints throw
 * `unsupported_endpoint` (400). Provider `config`: `api_base`, `api_version` (default `v1beta`).
 * @example
 * { name: 'gemini', type: 'gemini', config: { models: ['gemini-2.5-flash'] } }
 */
export default defineProvider({
  name: 'gemini',
  description: 'Google Gemini API, translated to and from OpenAI chat completions and embeddings.',
  openaiCompatible: false,
  buildRequest(context) {
    if (context.endpoint !== 'chat' && context.endpoint !== 'embeddings') throw Errors.unsupportedEndpoint(['gemini', context.endpoint]);
    const { url, headers } = geminiHeaders(context, geminiUrl(context));
    const body = context.endpoint === 'embeddings' ? geminiEmbeddingsBody(context) : geminiChatBody(context);
    return { url, method: 'POST', headers, body };
  },
  translateResponse: (upstream, context) =>
    context.endpoint === 'embeddings' ? translateGeminiEmbeddings(upstream, context) : translateGeminiChat(upstream, context),
  createStreamTranslator: createGeminiStreamTranslator,
  errorMessage: geminiErrorMessage,
  retryAfterMs: geminiRetryAfterMs,
});
