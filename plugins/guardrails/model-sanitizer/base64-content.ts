// Strict Base64 decoding of model_sanitizer's input into UTF-8 text; bad input is a 400 naming input.text.
import { Errors } from '../../../src/plugins/plugin-api.js';

// RFC 4648 §4: the standard alphabet, padded to a multiple of four, no whitespace or line breaks.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes strict Base64 to UTF-8 text. Rejects other alphabets (base64url), missing padding, whitespace, and
 * non-canonical encodings whose unused bits are not zero. A byte-order mark is kept as U+FEFF, so byte offsets
 * into the text are offsets into the file.
 * @example
 * decodeBase64Text('aGVsbG8=') // → 'hello'
 */
export function decodeBase64Text(encoded: string): string {
  // Re-encoding the decoded bytes gives back the input exactly when the input is canonical, strict Base64 (Buffer's
  // decoder itself is lenient), so the pattern only runs to say which rule a rejected input broke.
  const bytes = Buffer.from(encoded, 'base64');
  if (bytes.toString('base64') !== encoded) {
    const message = BASE64.test(encoded)
      ? 'input.text must be valid Base64: its padding bits are not zero (not a canonical encoding).'
      : 'input.text must be valid Base64 (RFC 4648, standard alphabet, padded, no whitespace).';
    throw Errors.validation([message], { param: 'input.text' });
  }
  try {
    return utf8.decode(bytes);
  } catch {
    throw Errors.validation(['input.text must be Base64 of UTF-8 text; the decoded content is not valid UTF-8.'], { param: 'input.text' });
  }
}
