// Masks every form of a secret (any letter case, base64, URL, hex) in bytes relayed chunk by chunk, holding back only an end that may begin a form.
import { SecretFormMatcher } from './secret-form-matcher.js';

const EMPTY = Buffer.alloc(0);

/**
 * Replaces every form {@link scrubSecrets} knows of one secret by the secret's mask (`sk-...wxyz`) in a body relayed in
 * chunks, a form cut across two chunks included. Bytes are read one character per byte (latin1), so bytes that are not
 * UTF-8 pass unchanged and a multi-byte character cut across chunks is never broken. A chunk that holds no form is
 * found so by one compiled scan and sent as it came (no copy). After each chunk, only an end that may begin a form is
 * held back (at most the longest form's length less one character; nothing after a line break, as no form holds
 * one), so the buffering is bounded by the secret and a chunk is delayed only while it may end inside a form. One
 * mask per body: it holds state.
 * @example
 * const mask = ChunkedSecretMask.of(providerKey);
 * for await (const chunk of body) res.write(mask ? mask.chunk(chunk) : chunk);
 * if (mask) res.end(mask.flush());
 */
export class ChunkedSecretMask {
  /** The end of the previous chunk (already masked), held back because it may begin a form. */
  private held = '';

  private constructor(private readonly forms: SecretFormMatcher) {}

  /** A mask for `secret`, or undefined without one (or one too short to search for). */
  static of(secret: string | undefined): ChunkedSecretMask | undefined {
    const forms = SecretFormMatcher.of(secret, 'bytes');
    return forms && new ChunkedSecretMask(forms);
  }

  /** One chunk, masked, to send now (possibly empty); an end that may begin a form waits for the next chunk or {@link flush}. */
  chunk(bytes: Buffer): Buffer {
    const read = bytes.toString('latin1');
    const text = this.held === '' ? read : this.held + read;
    const masked = this.forms.mask(text);
    const keep = this.forms.heldLength(masked);
    this.held = keep > 0 ? masked.slice(masked.length - keep) : '';
    // Nothing was held before and nothing masked: the chunk's own bytes, less what is now held (no copy).
    if (masked === read) return keep === 0 ? bytes : bytes.subarray(0, bytes.length - keep);
    return Buffer.from(keep > 0 ? masked.slice(0, masked.length - keep) : masked, 'latin1');
  }

  /** What is still held back at the end of the body (empty when nothing is). */
  flush(): Buffer {
    const rest = this.held === '' ? EMPTY : Buffer.from(this.held, 'latin1');
    this.held = '';
    return rest;
  }
}
