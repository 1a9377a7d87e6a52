// The Anthropic provider adapter: OpenAI chat completions over the Messages API, answers and streams translated back.
import { Errors, defineProvider } from '../../../src/plugins/plugin-api.js';
import { anthropicCountUrl, anthropicHeaders, anthropicUrl } from './api.js';
import { anthropicBody, anthropicCountBody } from './request.js';
import { anthropicErrorMessage, translateAnthropicResponse } from './response.js';
import { createAnthropicStreamTranslator } from './stream.js';

/**
 * Anthropic's Messages API. Chat only: completions and embeddings throw `unsupported_endpoint` (400).
 * Provider `config`: `api_base` (default `https://api.anthropic.com`), `anthropic_version`
 * (default `2023-06-01`), `anthropic_beta`, `allowed_client_betas` (the client betas passed on; see client-betas.ts),
 * `default_max_tokens` (default 4096). Counts tokens with `/v1/messages/count_tokens`.
 * @example
 * { name: 'claude', type: 'anthropic', config: { models: ['claude-sonnet-4-5'] } }
 */
export default defineProvider({
  name: 'anthropic',
  description: 'Anthropic Messages API, translated to and from OpenAI chat completions.',
  openaiCompatible: false,
  buildRequest(context) {
    if (context.endpoint !== 'chat') throw Errors.unsupportedEndpoint(['anthropic', context.endpoint]);
    const { url, headers } = anthropicHeaders(context, anthropicUrl(context));
    return { url, method: 'POST', headers, body: anthropicBody(context) };
  },
  translateResponse: translateAnthropicResponse,
  createStreamTranslator: createAnthropicStreamTranslator,
  errorMessage: anthropicErrorMessage,
  countTokens: {
    buildRequest(context) {
      const { url, headers } = anthropicHeaders({ ...context, stream: false }, anthropicCountUrl(context));
      return { url, method: 'POST', headers, body: anthropicCountBody(context) };
    },
    readCount(answer) {
      const count = typeof answer === 'object' && answer !== null ? (answer as { input_tokens?: unknown }).input_tokens : undefined;
      if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) throw Errors.upstreamInvalidResponse(['the token count has no input_tokens']);
      return count;
    },
  },
});
