// Bounds a Chronicles entry before it is stored: each recorded field capped with a `truncated` marker, secrets scrubbed, DLP text kept once.
import { DLP_PROCESSOR } from '../guardrails/policy-options.js';
import { holdsSecretShape, scrubSecretShapes, scrubSecretShapesDeep } from '../secrets/secret-shapes.js';
import type { SecretScrubber } from '../secrets/secret-scrubber.js';
import type { ChronicleEntry } from './chronicle-entry.js';

/** The default cap of one recorded field, in bytes of its UTF-8 (JSON for non-strings) text. */
export const DEFAULT_MAX_FIELD_BYTES = 32 * 1024;

/**
 * Extra bytes kept by the first cut (when the entry is queued), so that scrubbing (at flush) sees any secret that
 * straddles the final cut whole. Covers secrets and their encodings up to this length.
 */
const SCRUB_MARGIN_BYTES = 2048;

/** One field that was cut: where it is in the entry, and its size before the cut. */
export interface TruncatedField {
  field: string;
  bytes: number;
}

/** Visits one recorded field: the object holding it, its key there, and its path in the entry (built only when asked). */
type FieldVisitor = (owner: Record<string, unknown>, key: string, path: () => string) => void;

/** Calls `visit` for every capped field of an entry (no per-field objects: this runs for every request). */
function forEachField(entry: ChronicleEntry, visit: FieldVisitor): void {
  const record = entry as unknown as Record<string, unknown>;
  visit(record, 'input', () => 'input');
  visit(record, 'output', () => 'output');
  visit(record, 'usage', () => 'usage');
  if (entry.error) visit(entry.error as unknown as Record<string, unknown>, 'message', () => 'error.message');
  entry.attempts.forEach((attempt, index) => visit(attempt as unknown as Record<string, unknown>, 'error', () => `attempts.${index}.error`));
  entry.guardrail_checks.forEach((check, index) => visit(check as unknown as Record<string, unknown>, 'results', () => `guardrail_checks.${index}.results`));
  entry.tool_invocations.forEach((invocation, index) => {
    const owner = invocation as unknown as Record<string, unknown>;
    // The tool name is the caller's (a refused call names any tool it likes): capped and scrubbed like the content.
    for (const key of ['tool', 'arguments', 'result', 'error']) visit(owner, key, () => `tool_invocations.${index}.${key}`);
    invocation.guardrail_checks.forEach((check, inner) =>
      visit(check as unknown as Record<string, unknown>, 'results', () => `tool_invocations.${index}.guardrail_checks.${inner}.results`),
    );
  });
}

/** The first `maxBytes` bytes of `text`, never ending in a partial character. */
function cutText(text: string, maxBytes: number): string {
  const head = text.length > maxBytes ? text.slice(0, maxBytes) : text; // a character is at least one byte
  const bytes = Buffer.from(head, 'utf8');
  if (bytes.length <= maxBytes) return head;
  return bytes.subarray(0, maxBytes).toString('utf8').replace(/\uFFFD$/, '');
}

/**
 * What a field holds when JSON cannot write it: nested deeper than `JSON.stringify` can go (a provider's `usage` of
 * 100,000 nested arrays, say). The entry is kept with this text in place of the field, never dropped.
 */
export const NESTED_TOO_DEEP = '[not recorded: nested too deeply]';

/** `JSON.stringify(value)`, or null when it is nested too deeply to write (a RangeError; any other error is thrown). */
function jsonOrNull(value: unknown): string | undefined | null {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/** The text a field is measured and cut by: a string as is, anything else as JSON (null when it cannot be written). */
function textOf(value: unknown): string | undefined | null {
  return typeof value === 'string' ? value : value === undefined || value === null ? undefined : jsonOrNull(value);
}

/** A check as recorded: DLP results without the transformed text, which is the recorded input or output itself. */
function recordedCheck<T extends ChronicleEntry['guardrail_checks'][number]>(check: T): T {
  if (check.processor !== DLP_PROCESSOR) return { ...check };
  const strip = (result: unknown): unknown => {
    if (!result || typeof result !== 'object' || Array.isArray(result) || !('content' in result)) return result;
    const { content: _content, ...rest } = result as Record<string, unknown>;
    return rest;
  };
  return { ...check, results: Array.isArray(check.results) ? check.results.map(strip) : strip(check.results) };
}

/**
 * A copy of the entry's containers (the objects it shares with the request, such as its checks and tool
 * invocations, are never changed), with DLP results stripped of their transformed text.
 */
function ownCopy(entry: ChronicleEntry): ChronicleEntry {
  return {
    ...entry,
    error: entry.error ? { ...entry.error } : null,
    attempts: entry.attempts.map((attempt) => ({ ...attempt })),
    guardrail_checks: entry.guardrail_checks.map(recordedCheck),
    tool_invocations: entry.tool_invocations.map((invocation) => ({ ...invocation, guardrail_checks: invocation.guardrail_checks.map(recordedCheck) })),
  };
}

/** The sizes of an entry with no field cut (never written to). */
const NOTHING_CUT: Map<string, number> = new Map();

/** True when a DLP check of the entry (or of one of its tool calls) holds transformed text to strip. */
function hasDlpCheck(entry: ChronicleEntry): boolean {
  const dlp = (checks: ChronicleEntry['guardrail_checks']): boolean => checks.some((check) => check.processor === DLP_PROCESSOR);
  return dlp(entry.guardrail_checks) || entry.tool_invocations.some((invocation) => dlp(invocation.guardrail_checks));
}

/** True when a DLP check must be stripped of its text or a field is over `maxFieldBytes`. */
function needsBounding(entry: ChronicleEntry, maxFieldBytes: number): boolean {
  if (hasDlpCheck(entry)) return true;
  let over = false;
  forEachField(entry, (owner, key) => {
    if (over) return;
    const text = textOf(owner[key]);
    over = text === null || (text !== undefined && text.length * 3 > maxFieldBytes && Buffer.byteLength(text, 'utf8') > maxFieldBytes);
  });
  return over;
}

/**
 * Bounds an entry as it is queued, before scrubbing: DLP text dropped, a field nested too deeply to write replaced by
 * {@link NESTED_TOO_DEEP}, and each field over `maxFieldBytes` cut to
 * `maxFieldBytes` plus a margin (so a secret at the cut is still whole for the scrubber). Answers the bounded copy
 * and the original size of each cut field, for {@link finishEntry}. The given entry is not changed.
 */
export function boundEntry(given: ChronicleEntry, maxFieldBytes: number): { entry: ChronicleEntry; sizes: Map<string, number> } {
  // The usual entry (no DLP check, no field over the cap) needs no copy: it is given back as it is.
  if (!needsBounding(given, maxFieldBytes)) return { entry: given, sizes: NOTHING_CUT };
  const entry = ownCopy(given);
  const sizes = new Map<string, number>();
  forEachField(entry, (owner, key, path) => {
    const text = textOf(owner[key]);
    if (text === null) {
      owner[key] = NESTED_TOO_DEEP;
      return;
    }
    if (text === undefined || text.length * 3 <= maxFieldBytes) return; // cheap: 3 bytes per UTF-16 unit at most
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes <= maxFieldBytes) return;
    sizes.set(path(), bytes);
    owner[key] = cutText(text, maxFieldBytes + SCRUB_MARGIN_BYTES);
  });
  return { entry, sizes };
}

/**
 * Finishes an entry for storage: scrubs secrets from every field (any case and encoding) with `scrubber`, then cuts each field
 * over `maxFieldBytes` to a string of its first `maxFieldBytes` bytes followed by `…[truncated]`, and lists the cut
 * fields with their original sizes in `truncated`.
 * @example
 * const { entry: bounded, sizes } = boundEntry(entry, 32768); // when queued
 * const stored = finishEntry(bounded, sizes, 32768, secretScrubber(secrets)); // when flushed
 */
export function finishEntry(entry: ChronicleEntry, sizes: Map<string, number>, maxFieldBytes: number, scrubber: SecretScrubber): ChronicleEntry {
  const clean = scrubber.deep(entry);
  const truncated: TruncatedField[] = [];
  if (sizes.size === 0) return clean; // nothing was cut when queued
  forEachField(clean, (owner, key, path) => {
    const name = path();
    const cutBefore = sizes.get(name);
    const text = cutBefore === undefined ? undefined : textOf(owner[key]);
    if (text === undefined || text === null) return;
    owner[key] = `${cutText(text, maxFieldBytes)}…[truncated]`;
    truncated.push({ field: name, bytes: cutBefore! });
  });
  if (truncated.length > 0) clean.truncated = truncated;
  return clean;
}

/**
 * {@link boundEntry}, answering the bounded entry's JSON text. The usual entry is serialized once: when its whole text
 * is within the cap, so is each field's (a field's text is part of it), and nothing needs measuring or cutting.
 */
export function boundedEntryJson(given: ChronicleEntry, maxFieldBytes: number): { json: string; sizes: Map<string, number> } {
  if (!hasDlpCheck(given)) {
    // Null when a field is nested too deeply to write: bounding puts a note in its place.
    const json = jsonOrNull(given);
    if (json && json.length * 3 <= maxFieldBytes) return { json, sizes: NOTHING_CUT }; // 3 bytes per UTF-16 unit at most
  }
  const { entry, sizes } = boundEntry(given, maxFieldBytes);
  return { json: JSON.stringify(entry), sizes };
}

/**
 * Removes secrets found by their shape ({@link scrubSecretShapesDeep}: key-shaped text, credentials inside URLs) from
 * the recorded content of `entry` (the fields a caller, a provider or a tool server fills: input, output, error
 * messages, tool names, arguments and results, check results) and from the model a caller asked for (`model`, and
 * as each attempt sent it), in place. The names an admin chose (application, route, provider) are left as they are,
 * so filters on them still work; a route the caller named that did not resolve was scrubbed when the entry was built.
 */
function scrubEntrySecretShapes(entry: ChronicleEntry): void {
  forEachField(entry, (owner, key) => {
    const value = owner[key];
    if (value !== undefined && value !== null) owner[key] = scrubSecretShapesDeep(value);
  });
  if (entry.model !== null) entry.model = scrubSecretShapes(entry.model);
  for (const attempt of entry.attempts) attempt.model = scrubSecretShapes(attempt.model);
}

/**
 * {@link finishEntry} on the JSON text of a bounded entry, answering the finished entry's JSON text. Secrets found by
 * their shape are removed from its recorded content before the cut. An entry with no cut field and no such shape is
 * not parsed: the scrubber works on its text, which is then what is stored (a scrubbed text is checked to still be JSON).
 */
export function finishEntryText(json: string, sizes: Map<string, number>, maxFieldBytes: number, scrubber: SecretScrubber): string {
  if (sizes.size > 0 || holdsSecretShape(json)) {
    const entry = JSON.parse(json) as ChronicleEntry;
    scrubEntrySecretShapes(entry);
    return JSON.stringify(finishEntry(entry, sizes, maxFieldBytes, scrubber));
  }
  const clean = scrubber.text(json);
  if (clean !== json) JSON.parse(clean);
  return clean;
}
