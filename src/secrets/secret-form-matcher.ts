// Finds every form of one secret cheaply on the request path: one compiled scan before any rewrite, and the end of a chunk that may begin a form.
import { maskSecret } from './mask-secret.js';
import { mayHideEscapedSecret } from './json-escaped-forms.js';
import { escapeRegExp, MIN_SCRUBBED_SECRET_LENGTH, scrubSecrets, secretForms } from './secret-scrubber.js';

/** How a body is read: as text (UTF-8 decoded), or one character per byte (latin1), as chunked bodies are. */
export type SecretView = 'text' | 'bytes';

/** Matchers of recently used secrets, per view: the forms are built and compiled once per secret, not per answer. */
const matchers: Record<SecretView, Map<string, SecretFormMatcher>> = { text: new Map(), bytes: new Map() };
/** Matchers kept per view; past it, the oldest goes (a plain map: its lookup is the request path's). */
const MAX_MATCHERS = 256;

/**
 * The forms {@link scrubSecrets} knows of one secret (any letter case, base64, URL, hex), compiled once: {@link mask}
 * runs one case-insensitive scan of all of them and rewrites only text that may hold one (the rewrite is
 * {@link scrubSecrets}, so both find the same forms); {@link heldLength} tells how much of a chunk's end may begin one.
 * Stateless: shared by every answer that uses the secret.
 * @example
 * const forms = SecretFormMatcher.of(providerKey, 'text');
 * const safe = forms ? forms.mask(answerText) : answerText;
 */
export class SecretFormMatcher {
  /** Every form, any letter case: a text it does not match holds none (base64 forms in another case are false alarms only). */
  private readonly probe: RegExp;
  /** The forms matched in any case, in lower case, and those matched exactly. */
  private readonly lowerForms: string[];
  private readonly exactForms: string[];
  /** The first characters of the forms (both cases for those matched in any case): Latin-1 ones in a table, others in a set. */
  private readonly firstLatin1 = new Uint8Array(256);
  private readonly firstOthers = new Set<number>();
  /** The length of the longest form. */
  private readonly longest: number;

  private constructor(
    private readonly secrets: readonly string[],
    /** The secret's mask (`sk-...wxyz`) in the view's reading. */
    private readonly replacement: string,
  ) {
    const { anyCase, exact } = secretForms(secrets);
    const forms = [...anyCase, ...exact].sort((a, b) => b.length - a.length);
    this.probe = new RegExp(forms.map(escapeRegExp).join('|'), 'i');
    this.lowerForms = [...anyCase].map((form) => form.toLowerCase());
    this.exactForms = [...exact];
    for (const first of [...this.lowerForms.flatMap((form) => [form.charCodeAt(0), form.toUpperCase().charCodeAt(0)]), ...this.exactForms.map((form) => form.charCodeAt(0))]) {
      if (first < 256) this.firstLatin1[first] = 1;
      else this.firstOthers.add(first);
    }
    this.longest = forms[0]!.length;
  }

  /** The matcher of `secret` read in `view`, or undefined without a secret (or one too short to search for). Cached, bounded. */
  static of(secret: string | undefined, view: SecretView): SecretFormMatcher | undefined {
    if (!secret || secret.length < MIN_SCRUBBED_SECRET_LENGTH) return undefined;
    const cache = matchers[view];
    let matcher = cache.get(secret);
    if (!matcher) {
      const mask = maskSecret(secret);
      // Read one character per byte, the secret is its UTF-8 bytes; its text is kept too, as an ASCII key reads the same.
      const asBytes = Buffer.from(secret, 'utf8').toString('latin1');
      matcher =
        view === 'text' || asBytes === secret
          ? new SecretFormMatcher([secret], view === 'text' ? mask : Buffer.from(mask, 'utf8').toString('latin1'))
          : new SecretFormMatcher([secret, asBytes], Buffer.from(mask, 'utf8').toString('latin1'));
      if (cache.size >= MAX_MATCHERS) cache.delete(cache.keys().next().value!);
      cache.set(secret, matcher);
    }
    return matcher;
  }

  /**
   * `text` with every form replaced by the mask, a form written with JSON escapes (`\u0073k-…`) included; the same
   * string (no copy) when it holds none.
   */
  mask(text: string): string {
    return this.probe.test(text) || mayHideEscapedSecret(text) ? scrubSecrets(text, this.secrets, this.replacement) : text;
  }

  /**
   * The length of the longest end of `text` (read one character per byte) that is the proper beginning of a form (0
   * when none is): what a chunked relay must hold back until the next chunk. Never more than the longest form less one
   * character, and nothing before a line break, as no form holds one. Allocates nothing.
   */
  heldLength(text: string): number {
    // No form holds a line break: after one, nothing is held, and none matches across one.
    if (text.charCodeAt(text.length - 1) === 0x0a) return 0;
    for (let at = Math.max(0, text.length - this.longest + 1); at < text.length; at++) {
      const code = text.charCodeAt(at);
      if (code < 256 ? this.firstLatin1[code] === 0 : !this.firstOthers.has(code)) continue;
      if (startsForm(this.exactForms, text, at, false) || startsForm(this.lowerForms, text, at, true)) return text.length - at;
    }
    return 0;
  }
}

/** A Latin-1 character code in lower case (the letter cases a case-insensitive match of Latin-1 text folds). */
const lowerLatin1 = (code: number): number => ((code >= 0x41 && code <= 0x5a) || (code >= 0xc0 && code <= 0xde && code !== 0xd7) ? code + 0x20 : code);

/** True when `text` from `at` to its end is the proper beginning of one of `forms` (in lower case when `anyCase`). */
function startsForm(forms: readonly string[], text: string, at: number, anyCase: boolean): boolean {
  const length = text.length - at;
  next: for (const form of forms) {
    if (form.length <= length) continue;
    for (let index = 0; index < length; index++) {
      const code = text.charCodeAt(at + index);
      if (form.charCodeAt(index) !== (anyCase ? lowerLatin1(code) : code)) continue next;
    }
    return true;
  }
  return false;
}
