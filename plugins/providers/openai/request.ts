// OpenAI's request body: the client's body unchanged but for the upstream model name and the stream flag.
import type { ProviderRequestContext } from '../../../src/plugins/plugin-api.js';

/**
 * The body sent to an OpenAI-compatible upstream: the client's OpenAI body with `model` set to the
 * upstream model, `stream: true` when streaming, and neither `stream` nor `stream_options` otherwise
 * (OpenAI refuses `stream_options` without streaming). Embeddings and completions pass through the same way.
 */
export function openaiBody(context: ProviderRequestContext): string {
  const body: Record<string, unknown> = { ...context.body, model: context.model };
  if (context.stream) body.stream = true;
  else {
    delete body.stream;
    delete body.stream_options;
  }
  return JSON.stringify(body);
}
