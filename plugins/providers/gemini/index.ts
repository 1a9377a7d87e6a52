// The Gemini provider adapter: OpenAI chat completions and embeddings over the Gemini API, translated both ways.
import { Errors, defineProvider } from '../../../src/plugins/plugin-api.js';
import { geminiCountUrl, geminiHeaders, geminiModel, geminiUrl } from './api.js';
import { geminiEmbeddingsBody, translateGeminiEmbeddings } from './embeddings.js';
import { geminiChatBody, geminiCountBody } from './request.js';
import { geminiErrorMessage, geminiRetryAfterMs, translateGeminiChat } from './response.js';
import { createGeminiStreamTranslator } from './stream.js';

/**
 * Google's Gemini API (generativelanguage.googleapis.com). Chat and embeddings; the other endpoints throw
 * `unsupported_endpoint` (400). Provider `config`: `api_base`, `api_version` (default `v1beta`). Counts tokens with
 * `models/{model}:countTokens`.
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
  countTokens: {
    buildRequest(context) {
      const { url, headers } = geminiHeaders({ ...context, stream: false }, geminiCountUrl(context));
      return { url, method: 'POST', headers, body: geminiCountBody(context, geminiModel(context)) };
    },
    readCount(answer) {
      const count = typeof answer === 'object' && answer !== null ? (answer as { totalTokens?: unknown }).totalTokens : undefined;
      if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) throw Errors.upstreamInvalidResponse(['the token count has no totalTokens']);
      return count;
    },
  },
});
