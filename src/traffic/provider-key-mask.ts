// Masks the attempt's provider key in a relayed 200 answer: a whole JSON body, stream chunks (a key split across two chunks included) and payloads.
import { maskSecret } from '../secrets/mask-secret.js';
import { MIN_SCRUBBED_SECRET_LENGTH } from '../secrets/secret-scrubber.js';

const NEWLINE = 0x0a;

/** The bytes of recently used keys and of their masks: a key is encoded once, not per answer. */
const encoded = new Map<string, { key: Buffer; mask: Buffer; text: string }>();
const MAX_ENCODED = 64;

function encodedOf(secret: string): { key: Buffer; mask: Buffer; text: string } {
  let found = encoded.get(secret);
  if (!found) {
    if (encoded.size >= MAX_ENCODED) encoded.clear();
    const text = maskSecret(secret);
    found = { key: Buffer.from(secret, 'utf8'), mask: Buffer.from(text, 'utf8'), text };
    encoded.set(secret, found);
  }
  return found;
}

/**
 * Replaces the provider key, as sent (its exact bytes), by its mask (`sk-...wxyz`) in what an upstream answers with
 * status 200, as {@link upstreamError} does for error answers: an upstream that echoes the key it was sent must not pass
 * it to the client or the response cache. Only the exact form is searched on this path (one `indexOf` per answer or
 * chunk); the request log's scrubber also catches other cases and encodings. One mask per answer: a stream's mask holds
 * state (the end of a chunk that may begin the key).
 * @example
 * const mask = ProviderKeyMask.of(context.apiKey?.value);
 * const body = mask ? mask.whole(bytes) : bytes;
 */
export class ProviderKeyMask {
  /** The end of the previous chunk, held back because it may be the start of the key. */
  private held: Buffer | undefined;
  /** The key's first two bytes. */
  private readonly head: Buffer;

  private constructor(
    private readonly secret: string,
    private readonly key: Buffer,
    private readonly mask: Buffer,
    private readonly maskText: string,
  ) {
    this.head = key.subarray(0, 2);
  }

  /** A mask for `secret`, or undefined without a key (or one too short to search for). */
  static of(secret: string | undefined): ProviderKeyMask | undefined {
    if (secret === undefined || secret.length < MIN_SCRUBBED_SECRET_LENGTH) return undefined;
    const { key, mask, text } = encodedOf(secret);
    return new ProviderKeyMask(secret, key, mask, text);
  }

  /** `bytes` with every occurrence of the key masked; the same buffer when there is none. */
  whole(bytes: Buffer): Buffer {
    let at = bytes.indexOf(this.key);
    if (at < 0) return bytes;
    const parts: Buffer[] = [];
    let from = 0;
    for (; at >= 0; at = bytes.indexOf(this.key, from)) {
      parts.push(bytes.subarray(from, at), this.mask);
      from = at + this.key.length;
    }
    parts.push(bytes.subarray(from));
    return Buffer.concat(parts);
  }

  /**
   * One stream chunk, masked, to send now. An end that may begin the key is held back and sent with the next chunk
   * (or by {@link flush}); a chunk that ends a line holds nothing, as a key holds no line break.
   */
  chunk(bytes: Buffer): Buffer {
    const joined = this.held ? Buffer.concat([this.held, bytes]) : bytes;
    this.held = undefined;
    const masked = this.whole(joined);
    const keep = masked.length > 0 && masked[masked.length - 1] !== NEWLINE ? this.keyStartAtEnd(masked) : 0;
    if (keep === 0) return masked;
    this.held = Buffer.from(masked.subarray(masked.length - keep));
    return masked.subarray(0, masked.length - keep);
  }

  /** What is still held back at the end of the stream (empty when nothing is). */
  flush(): Buffer {
    const rest = this.held ?? Buffer.alloc(0);
    this.held = undefined;
    return rest;
  }

  /** A payload (one whole event's data) with the key masked. */
  text(payload: string): string {
    return payload.includes(this.secret) ? payload.replaceAll(this.secret, this.maskText) : payload;
  }

  /**
   * The length of the longest end of `bytes` that is a proper start of the key (0 when none is). The key's first two
   * bytes are searched natively (rare in text, unlike one letter), the rest compared byte by byte.
   */
  private keyStartAtEnd(bytes: Buffer): number {
    const key = this.key;
    const end = bytes.length;
    for (let at = bytes.indexOf(this.head, Math.max(0, end - key.length + 1)); at >= 0; at = bytes.indexOf(this.head, at + 1)) {
      let matched = 2;
      while (at + matched < end && bytes[at + matched] === key[matched]) matched++;
      if (at + matched === end) return end - at;
    }
    return bytes[end - 1] === key[0] ? 1 : 0;
  }
}
