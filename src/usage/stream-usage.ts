// Streams always report usage: the upstream is asked for the usage chunk, which the client sees only when it asked too.

/** How OpenAI ends every chunk of a stream that asked for usage, when the chunk carries none: a top-level member. */
const NULL_USAGE_TAIL = ',"usage":null}';

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

/**
 * One stream payload as a client that did not ask for usage sees it: undefined for the usage-only chunk (dropped), else
 * the chunk without its top-level `usage` member (`null` on every chunk once usage is asked for, or the totals some
 * servers put on the last content chunk). Payloads without that member, `[DONE]` and text that is not JSON pass as they are.
 */
export function withoutStreamUsage(payload: string): string | undefined {
  // OpenAI's own shape, the common case: a trailing top-level `"usage":null`, cut without parsing.
  if (payload.endsWith(NULL_USAGE_TAIL)) return `${payload.slice(0, -NULL_USAGE_TAIL.length)}}`;
  if (!payload.includes('"usage"')) return payload;
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (!isRecord(parsed) || !Object.hasOwn(parsed, 'usage')) return payload;
  if (Array.isArray(parsed.choices) && parsed.choices.length === 0 && isRecord(parsed.usage)) return undefined;
  delete parsed.usage;
  return JSON.stringify(parsed);
}
