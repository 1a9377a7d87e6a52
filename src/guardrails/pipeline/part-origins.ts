// Remembers where a translated content part came from in the client's own request, so a refusal names the client's part.

/** Each translated part (an `image_url` or `file` part built from a `/v1/messages` block or a `/v1/responses` part) and its place in the client's request. */
const origins = new WeakMap<object, string>();

/**
 * Notes that `part`, a chat content part built by a translation, stands for the client's part at `param`
 * (`messages[1].content[0]`, `input[2].content[1]`). Answers the part.
 */
export function notePartOrigin<T extends object>(part: T, param: string): T {
  origins.set(part, param);
  return part;
}

/** Where the client sent `part` (see {@link notePartOrigin}), or undefined for a part the client sent as it is. */
export function partOrigin(part: unknown): string | undefined {
  return part !== null && typeof part === 'object' ? origins.get(part) : undefined;
}
