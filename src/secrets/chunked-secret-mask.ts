// Masks every form of a secret (any letter case, base64, URL, hex) in bytes relayed chunk by chunk, holding back only an end that may begin a form.
import { maskSecret } from './mask-secret.js';
import { longestSecretForm, scrubSecrets } from './secret-scrubber.js';

const NEWLINE = '\n';

/**
 * Replaces every form {@link scrubSecrets} knows of one secret by the secret's mask (`sk-...wxyz`) in a body relayed in
 * chunks, a form cut across two chunks included. Bytes are read one character per byte (latin1), so bytes that are not
 * UTF-8 pass unchanged and a multi-byte character cut across chunks is never broken. After each chunk, at most the
 * longest form's length less one character is held back (nothing after a line break, as no form holds one), so the
 * buffering is bounded by the secret, not by the body. One mask per body: it holds state.
 * @example
 * const mask = ChunkedSecretMask.of(providerKey);
 * for await (const chunk of body) res.write(mask ? mask.chunk(chunk) : chunk);
 * if (mask) res.end(mask.flush());
 */
export class ChunkedSecretMask {
  /** The end of the previous chunk (already masked), held back because it may begin a form. */
  private held = '';

  private constructor(
    private readonly secrets: readonly string[],
    private readonly replacement: string,
    private readonly holdChars: number,
  ) {}

  /** A mask for `secret`, or undefined without one (or one too short to search for). */
  static of(secret: string | undefined): ChunkedSecretMask | undefined {
    if (!secret) return undefined;
    // The secret as its UTF-8 bytes read one per character, as the body is read.
    const asBytes = Buffer.from(secret, 'utf8').toString('latin1');
    const secrets = asBytes === secret ? [secret] : [secret, asBytes];
    const longest = longestSecretForm(secrets);
    if (longest === 0) return undefined;
    return new ChunkedSecretMask(secrets, Buffer.from(maskSecret(secret), 'utf8').toString('latin1'), longest - 1);
  }

  /** One chunk, masked, to send now (possibly empty); an end that may begin a form waits for the next chunk or {@link flush}. */
  chunk(bytes: Buffer): Buffer {
    const text = scrubSecrets(this.held + bytes.toString('latin1'), this.secrets, this.replacement);
    const keep = Math.min(this.holdChars, text.length - (text.lastIndexOf(NEWLINE) + 1));
    this.held = keep > 0 ? text.slice(text.length - keep) : '';
    return Buffer.from(keep > 0 ? text.slice(0, text.length - keep) : text, 'latin1');
  }

  /** What is still held back at the end of the body (empty when nothing is). */
  flush(): Buffer {
    const rest = Buffer.from(this.held, 'latin1');
    this.held = '';
    return rest;
  }
}
