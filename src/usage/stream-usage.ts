// Streams always report usage: the upstream is asked for the usage chunk, which the client sees only when it asked too.

const USAGE_ONLY = /"choices"\s*:\s*\[\s*\]/;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The body to send upstream for a model request: for a chat or completions stream whose client did not set
 * `stream_options.include_usage`, the same body asking for it (`hide` is then true: the usage chunk is kept from the
 * client). A provider whose `config.stream_usage` is false is never asked (for an OpenAI-compatible server that
 * refuses `stream_options`); its streams then record no usage.
 */
export function withStreamUsage(
  body: Record<string, unknown>,
  stream: boolean,
  providerConfig: Record<string, unknown>,
): { body: Record<string, unknown>; hide: boolean } {
  if (!stream || providerConfig.stream_usage === false) return { body, hide: false };
  const options = isRecord(body.stream_options) ? body.stream_options : {};
  if (options.include_usage === true) return { body, hide: false };
  return { body: { ...body, stream_options: { ...options, include_usage: true } }, hide: true };
}

/** True for OpenAI's usage-only stream chunk: no choices, a `usage` object. */
export function isUsageOnlyChunk(payload: string): boolean {
  if (!payload.includes('"usage"') || !USAGE_ONLY.test(payload)) return false;
  try {
    const parsed = JSON.parse(payload) as { choices?: unknown; usage?: unknown };
    return Array.isArray(parsed.choices) && parsed.choices.length === 0 && isRecord(parsed.usage);
  } catch {
    return false;
  }
}
