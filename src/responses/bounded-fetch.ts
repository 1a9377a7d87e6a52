// Bounds what the Responses tool loop reads from a tool server: an answer over the byte cap is cut off, never buffered whole.
import type { GuardedFetch } from '../http/outbound-url-guard.js';

/** A tool-server answer went past the byte cap. */
export class ToolAnswerTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`The MCP server sent more than ${limit} bytes in one answer.`);
    this.name = 'ToolAnswerTooLarge';
  }
}

/**
 * Wraps a fetch so that each answer body errors (and the connection is cancelled) once it passes `maxBytes`.
 * @example
 * const fetchWithCap = withBoundedBodies(fetch, 10 * 1024 * 1024);
 */
export function withBoundedBodies(fetch: GuardedFetch, maxBytes: number): GuardedFetch {
  return async (url, init) => {
    const response = await fetch(url, init);
    if (!response.body) return response;
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new ToolAnswerTooLarge(maxBytes);
    }
    let seen = 0;
    const counted = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          seen += chunk.byteLength;
          if (seen > maxBytes) controller.error(new ToolAnswerTooLarge(maxBytes));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
