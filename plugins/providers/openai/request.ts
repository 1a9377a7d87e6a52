// OpenAI's request body: the client's body unchanged but for the upstream model name and the stream flag.
import type { ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { withoutAnthropicMembers } from '../shared/chat-extensions.js';
import { formBody } from '../shared/form-body.js';
import { configString } from '../shared/upstream-url.js';

/** Where an OpenAI-format server takes an answer's length limit. */
export type TokenLimitField = 'max_tokens' | 'max_completion_tokens';

/** True when the provider is OpenAI's own API: no `api_base`, or one on `api.openai.com`. */
function isOpenAiItself(context: ProviderRequestContext): boolean {
  if (context.provider.type !== 'openai') return false;
  const base = configString(context, 'api_base');
  if (base === undefined) return true;
  try {
    return new URL(base).hostname === 'api.openai.com';
  } catch {
    return false;
  }
}

/**
 * The field the length limit of a body translated from POST /v1/messages goes in: `config.max_tokens_field` when it
 * names one; else `max_completion_tokens` on OpenAI's own API (its reasoning models refuse `max_tokens`, and the
 * others take both) and when the body asks for reasoning (`reasoning_effort`: a reasoning model, on OpenAI or Azure
 * alike); else `max_tokens`, which every OpenAI-compatible server takes.
 */
export function tokenLimitField(context: ProviderRequestContext, body: Record<string, unknown>): TokenLimitField {
  const configured = context.provider.config.max_tokens_field;
  if (configured === 'max_tokens' || configured === 'max_completion_tokens') return configured;
  return isOpenAiItself(context) || body.reasoning_effort !== undefined ? 'max_completion_tokens' : 'max_tokens';
}

/**
 * The body sent to an OpenAI-compatible upstream: the client's OpenAI body with `model` set to the
 * upstream model, `stream: true` when streaming, and neither `stream` nor `stream_options` otherwise
 * (OpenAI refuses `stream_options` without streaming). Embeddings, completions, moderations, images and speech pass
 * through the same way; a transcription is sent as the multipart form it came as, with the upstream model name.
 * A body translated from POST /v1/messages goes without Anthropic's members (see {@link withoutAnthropicMembers}), its
 * `max_tokens` in the field {@link tokenLimitField} names.
 */
export function openaiBody(context: ProviderRequestContext): string | FormData {
  if (context.endpoint === 'transcriptions') return formBody({ ...context.body, model: context.model });
  const client = context.clientFormat === 'anthropic' ? withoutAnthropicMembers(context.body) : context.body;
  const body: Record<string, unknown> = { ...client, model: context.model };
  if (context.clientFormat === 'anthropic' && body.max_tokens !== undefined && tokenLimitField(context, body) === 'max_completion_tokens') {
    body.max_completion_tokens = body.max_tokens;
    delete body.max_tokens;
  }
  if (context.stream) body.stream = true;
  else {
    delete body.stream;
    delete body.stream_options;
  }
  return JSON.stringify(body);
}
