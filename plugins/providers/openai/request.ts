// OpenAI's request body: the client's body unchanged but for the upstream model name and the stream flag.
import type { ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { withoutAnthropicMembers } from '../shared/chat-extensions.js';
import { formBody } from '../shared/form-body.js';

/**
 * The body sent to an OpenAI-compatible upstream: the client's OpenAI body with `model` set to the
 * upstream model, `stream: true` when streaming, and neither `stream` nor `stream_options` otherwise
 * (OpenAI refuses `stream_options` without streaming). Embeddings, completions, moderations, images and speech pass
 * through the same way; a transcription is sent as the multipart form it came as, with the upstream model name.
 * A body translated from POST /v1/messages goes without Anthropic's members (see {@link withoutAnthropicMembers}).
 */
export function openaiBody(context: ProviderRequestContext): string | FormData {
  if (context.endpoint === 'transcriptions') return formBody({ ...context.body, model: context.model });
  const client = context.clientFormat === 'anthropic' ? withoutAnthropicMembers(context.body) : context.body;
  const body: Record<string, unknown> = { ...client, model: context.model };
  if (context.stream) body.stream = true;
  else {
    delete body.stream;
    delete body.stream_options;
  }
  return JSON.stringify(body);
}
