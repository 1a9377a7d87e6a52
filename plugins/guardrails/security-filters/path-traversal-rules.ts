// Path traversal rules: runs of ../ and ..\, traversal to system files, encoded traversal, null-byte truncation, odd separators.
import type { PatternRule } from './filter-rule.js';
import type { DecodedText } from './payload-decoder.js';

/** Files and folders a traversal aims at: credentials, system configuration, web server secrets. */
const TARGETS = String.raw`(?:etc[\\/](?:passwd|shadow|group|hosts|issue|sudoers|crontab)|boot\.ini|win\.ini|system\.ini|windows[\\/]system32|winnt[\\/]|\.htaccess|\.htpasswd|web\.config|\.env\b|\.ssh[\\/]|id_rsa|proc[\\/]self[\\/](?:environ|cmdline|maps|mem|status|fd)|\.aws[\\/]credentials|\.git[\\/]config|desktop\.ini|global\.asa|repair[\\/](?:sam|system))`;

/** Plain `../` steps in one run from which the run counts on its own: deeper than real project layouts go. */
const PLAIN_STEPS = 7;

/** One step up: two or more dots and a separator. */
const SEGMENT = /(?<!\.)\.{2,}[\\/]/g;

/** Number of `../` or `..\` steps in a text. */
function countSegments(text: string): number {
  SEGMENT.lastIndex = 0;
  let count = 0;
  while (SEGMENT.exec(text)) count++;
  return count;
}

/**
 * A run of steps up. Legitimate relative paths use plain `../` (`../../../deps/x`, even five or six deep in code),
 * and JSON writes `..\\..\\` for Windows paths; attacks bend the form to slip past filters: mixed or doubled
 * separators, `./` in between, three or more dots. An evasive run of 2+ steps counts; a plain run only from
 * {@link PLAIN_STEPS} steps; one step only with 4+ dots.
 */
function runScore(match: RegExpExecArray): number {
  const run = match[0].replace(/\\\\/g, '\\');
  const steps = run.match(/\.{2,}[\\/]+/g) ?? [];
  const evasive = /\.{3,}|[\\/]{2,}|(?:^|[\\/])\.[\\/]/.test(run) || (run.includes('/') && run.includes('\\'));
  if (steps.length >= 3 && evasive) return 0.8;
  if (steps.length === 2 && evasive) return 0.7;
  if (steps.length >= PLAIN_STEPS) return 0.7;
  if (steps.length >= 3) return 0.4;
  return steps.length === 1 && /^\.{4,}/.test(run) ? 0.6 : 0;
}

/** The decoded text has more steps up than the text as sent: the traversal was encoded. */
function encodedScore(_: RegExpExecArray, text: DecodedText): number {
  return text.encoded && countSegments(text.decoded) > countSegments(text.raw) ? 0.85 : 0;
}

/** Escapes that hide a path: percent, %u, 0x literals. */
const ESCAPES = /%[0-9a-fA-F]{2}|%u[0-9a-fA-F]{4}|0x[0-9a-fA-F]{2}/g;

/** A system file reached through an encoded path: the text as sent holds several escapes. */
function encodedTargetScore(_: RegExpExecArray, text: DecodedText): number {
  if (!text.encoded) return 0;
  return (text.raw.match(ESCAPES)?.length ?? 0) >= 3 ? 0.75 : 0;
}

const re = (source: string): RegExp => new RegExp(source, 'gi');

/** The path traversal rules, read on the decoded text (one reads the text as sent). */
export const PATH_TRAVERSAL_RULES: readonly PatternRule[] = [
  // A backslash before a quote escapes the quote (`"../../\"` in JSON); it is not a separator.
  { id: 'path.traversal_sequence', pattern: /(?<!\.)(?:\.{2,}(?:\/|\\(?!["']))+(?:\.(?:\/|\\(?!["']))+)*)+/g, score: runScore, hints: ['..'] },
  { id: 'path.traversal_target', pattern: re(String.raw`(?<!\.)\.{2,}[\\/][^\s'"<>]{0,80}?${TARGETS}`), score: 0.9, hints: ['..'] },
  { id: 'path.traversal_target', pattern: re(String.raw`(?<![\\/]\.)(?:[\\/]\.){3,}[\\/]${TARGETS}`), score: 0.8, hints: ['/.', '\\.'] },
  { id: 'path.encoded_traversal', pattern: /(?<!\.)\.{2,}[\\/]/g, score: encodedScore, hints: ['..'] },
  { id: 'path.encoded_target', pattern: re(TARGETS), score: encodedTargetScore },
  {
    // A system path whose separators are broken escapes (`etc%c1%8sissue`): the shape of a filter-evasion payload.
    id: 'path.obfuscated_separator',
    pattern: re(String.raw`(?:etc|windows|winnt|system32|drivers)(?:[^A-Za-z0-9\s/\\]|%[0-9a-zA-Z]{2}){1,8}(?:passwd|shadow|issue|hosts|system32|drivers|win\.ini)`),
    score: 0.8,
    hints: ['etc', 'windows', 'winnt', 'system32', 'drivers'],
  },
  {
    // Windows system files named by absolute path: what local-file-inclusion payloads read first.
    id: 'path.sensitive_file',
    pattern: /\b[a-z]:[\\/]+(?:boot\.ini|inetpub[\\/]+wwwroot[\\/]+global\.asa|(?:windows|winnt)[\\/]+(?:win\.ini|repair[\\/]+(?:sam|system)|system32[\\/]+config[\\/]+sam))\b/gi,
    score: 0.55,
    hints: ['boot.ini', 'global.asa', 'win.ini', 'repair', 'config'],
  },
  {
    id: 'path.null_byte',
    // Only the URL form: `\0` and `\u0000` are everyday escapes in source code.
    pattern: /[\w./\\]%00|%00[\w./\\]/g,
    score: 0.55,
    on: 'raw',
    hints: ['%00'],
  },
    // `/../` from the root: weak alone (code joins `__dirname + '/../lib'`), adds up with other signs.
  { id: 'path.root_traversal', pattern: /(?:^|[\s'"=(])[\\/]+(?:\.[\\/]+)*\.{2,}[\\/]/g, score: 0.4, hints: ['..'] },
];
