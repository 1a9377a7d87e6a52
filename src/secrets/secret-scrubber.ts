// Removes known secrets from text in every form an echo may take: any letter case, base64 (also inside a longer base64 run), URL and hex encoding, JSON escapes.
import { LRUCache } from 'lru-cache';
import { decodeJsonEscapes, mayHideEscapedSecret } from './json-escaped-forms.js';

/** Secrets shorter than this are never searched for: they would match ordinary words. */
export const MIN_SCRUBBED_SECRET_LENGTH = 8;

/** The text that stands in for a scrubbed secret. */
export const SCRUBBED = '[REDACTED]';

interface CompiledScrubber {
  /** Case-insensitive forms: the secret itself, its URL encoding and its hex encoding. */
  anyCase: RegExp | null;
  /** Case-sensitive forms: the stable cores of its base64 and base64url encodings at each byte alignment. */
  exact: RegExp | null;
  /** The case-insensitive forms in lower case, and the exact forms: a text holding none of them needs no replace. */
  lowerForms: string[];
  exactForms: string[];
}

/** True when `text` may hold a secret: one of the forms occurs in it (a plain substring search, far cheaper than the patterns). */
function mayHoldSecret(scrubber: CompiledScrubber, text: string): boolean {
  if (scrubber.exactForms.some((form) => text.includes(form))) return true;
  if (scrubber.lowerForms.length === 0) return false;
  const lower = text.toLowerCase();
  return scrubber.lowerForms.some((form) => lower.includes(form));
}

/** Replaces every form of the scrubber's secrets in `text` (no JSON escape decoded). */
function replaceForms(scrubber: CompiledScrubber, text: string, replacement: string): string {
  let out = text;
  if (scrubber.anyCase) out = out.replace(scrubber.anyCase, replacement);
  if (scrubber.exact) out = out.replace(scrubber.exact, replacement);
  return out;
}

/**
 * Replaces every form of the scrubber's secrets in `text`, also where JSON escapes write some of its characters
 * (`\u0073k-…`, `\/`): JSON text is read by a parser that turns them back into the secret. Text with such an escape
 * is searched decoded ({@link decodeJsonEscapes}); when a form is found there, the decoded text is answered, masked
 * (JSON of the same value but the secret), else the text as it came.
 */
function scrubWith(scrubber: CompiledScrubber, text: string, replacement: string): string {
  if (text.length < MIN_SCRUBBED_SECRET_LENGTH) return text;
  const out = mayHoldSecret(scrubber, text) ? replaceForms(scrubber, text, replacement) : text;
  if (!mayHideEscapedSecret(out)) return out;
  const decoded = decodeJsonEscapes(out);
  return decoded !== out && mayHoldSecret(scrubber, decoded) ? replaceForms(scrubber, decoded, replacement) : out;
}

const compiled = new LRUCache<string, CompiledScrubber>({ max: 512 });

/** `text` with the characters a regular expression gives a meaning escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The base64 characters that depend only on the secret's bytes, for each of the three byte alignments the secret
 * may have inside a longer encoded value (for example `Basic base64(user:token)`).
 */
function base64Cores(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const cores: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    const whole = Math.floor(padded.length / 3) * 4;
    const skip = offset === 0 ? 0 : offset + 1;
    const core = padded.toString('base64').slice(skip, whole);
    if (core.length >= MIN_SCRUBBED_SECRET_LENGTH) {
      cores.push(core);
      const url = core.replace(/\+/g, '-').replace(/\//g, '_');
      if (url !== core) cores.push(url);
    }
  }
  return cores;
}

/**
 * The forms {@link scrubSecrets} searches for `secrets`: those matched in any letter case (the secret, its URL and hex
 * encodings) and those matched exactly (the stable cores of its base64 and base64url encodings).
 */
export function secretForms(secrets: readonly string[]): { anyCase: Set<string>; exact: Set<string> } {
  const anyCase = new Set<string>();
  const exact = new Set<string>();
  for (const secret of secrets) {
    anyCase.add(secret);
    // A secret holding `"` or `\` as a JSON string writes it: `a\"b`.
    anyCase.add(JSON.stringify(secret).slice(1, -1));
    anyCase.add(encodeURIComponent(secret));
    anyCase.add(Buffer.from(secret, 'utf8').toString('hex'));
    for (const core of base64Cores(secret)) exact.add(core);
  }
  return { anyCase, exact };
}

function compile(secrets: readonly string[]): CompiledScrubber {
  const { anyCase, exact } = secretForms(secrets);
  // Longest first, so a longer form wins over a shorter one it contains.
  const pattern = (forms: Set<string>, flags: string): RegExp | null =>
    forms.size === 0
      ? null
      : new RegExp(
          [...forms]
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join('|'),
          flags,
        );
  return {
    anyCase: pattern(anyCase, 'gi'),
    exact: pattern(exact, 'g'),
    lowerForms: [...anyCase].map((form) => form.toLowerCase()),
    exactForms: [...exact],
  };
}

function scrubberFor(secrets: readonly (string | undefined | null)[]): CompiledScrubber | undefined {
  const usable = [...new Set(secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_SCRUBBED_SECRET_LENGTH))];
  if (usable.length === 0) return undefined;
  const cacheKey = usable.sort().join('\u0000');
  let scrubber = compiled.get(cacheKey);
  if (!scrubber) {
    scrubber = compile(usable);
    compiled.set(cacheKey, scrubber);
  }
  return scrubber;
}

/**
 * Replaces every occurrence of the given secrets in `text`, in any letter case, base64 or base64url encoded
 * (also inside a longer base64 value), URL-encoded or hex-encoded, and any of these with characters written as JSON
 * escapes (`\u0073`, `\/`). Secrets shorter than
 * {@link MIN_SCRUBBED_SECRET_LENGTH} and empty entries are ignored. The compiled pattern is cached per secret set.
 * @example
 * scrubSecrets('invalid token SK-LIVE-ABC123XYZ', ['sk-live-abc123xyz']); // 'invalid token [REDACTED]'
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined | null)[], replacement: string = SCRUBBED): string {
  const scrubber = scrubberFor(secrets);
  return scrubber ? scrubWith(scrubber, text, replacement) : text;
}

/** True when `text` holds one of the secrets in any form {@link scrubSecrets} removes. */
export function containsSecret(text: string, secrets: readonly (string | undefined | null)[]): boolean {
  return scrubSecrets(text, secrets) !== text;
}

/** A scrubber compiled once for a set of secrets, for scrubbing many values with the same set. */
export interface SecretScrubber {
  /** {@link scrubSecrets} with this scrubber's secrets. */
  text(text: string): string;
  /** {@link scrubSecretsDeep} with this scrubber's secrets. */
  deep<T>(value: T): T;
}

/**
 * Compiles a scrubber for `secrets` once, so a batch of values (a Chronicles flush) is scrubbed without finding the
 * compiled pattern again for each value.
 */
export function secretScrubber(secrets: readonly (string | undefined | null)[]): SecretScrubber {
  const scrubber = scrubberFor(secrets);
  const text = (value: string): string => (scrubber ? scrubWith(scrubber, value, SCRUBBED) : value);
  return {
    text,
    deep<T>(value: T): T {
      if (!scrubber) return value;
      const json = JSON.stringify(value);
      if (json === undefined) return value;
      const clean = text(json);
      return clean === json ? value : (JSON.parse(clean) as T);
    },
  };
}

/**
 * Scrubs every string inside a JSON-like value (object keys included), returning a new value only where something changed.
 * Depth is bounded by the caller's input limits; values are walked iteratively per level.
 */
export function scrubSecretsDeep<T>(value: T, secrets: readonly (string | undefined | null)[]): T {
  if (!scrubberFor(secrets)) return value;
  const text = JSON.stringify(value);
  if (text === undefined) return value;
  const clean = scrubSecrets(text, secrets);
  return clean === text ? value : (JSON.parse(clean) as T);
}
