// Invisible and look-alike character rules: Unicode tags, bidi controls, zero-width characters, mixed-script words.
import { snippet } from './scan-rule.js';
import type { Severity, ToolFinding, ToolString } from './scan-types.js';

/** Unicode tag characters: invisible, each mirrors an ASCII character ("ASCII smuggling"). */
const TAGS = /[\u{E0000}-\u{E007F}]+/gu;
/** Bidirectional controls: reorder what a reviewer sees (Trojan Source, U+202E RIGHT-TO-LEFT OVERRIDE). */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
/** Zero-width and other invisible characters. ZWJ and ZWNJ also join emoji and Indic or Arabic letters, so they are checked in context. */
const INVISIBLE = /[\u200B\u2060-\u2064\u180E\u034F\u115F\u1160\u3164\uFFA0]|(?<!^)\uFEFF|(?<=[A-Za-z0-9])[\u200C\u200D\u00AD](?=[A-Za-z0-9])/u;
/** A word of letters, for the mixed-script check. */
const WORD = /\p{L}[\p{L}\p{M}]*/gu;
const LATIN = /\p{Script=Latin}/u;
const LOOKALIKE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;

/** Decodes a run of tag characters to the ASCII they mirror. */
function decodeTags(run: string): string {
  return Array.from(run, (char) => {
    const code = (char.codePointAt(0) ?? 0xe0000) - 0xe0000;
    return code >= 0x20 && code < 0x7f ? String.fromCharCode(code) : '';
  }).join('');
}

function finding(rule: string, severity: Severity, evidence: string, location: string): ToolFinding {
  return { rule, severity, evidence, location };
}

/**
 * Hidden or look-alike characters in any string of the tool. Tag characters are critical (they carry hidden text,
 * shown decoded); bidi controls and zero-width characters are high; a word mixing Latin with Cyrillic, Greek or
 * similar letters is medium in text and high in the tool or a parameter name (a spoofed name).
 */
export function unicodeFindings(strings: readonly ToolString[]): ToolFinding[] {
  const findings: ToolFinding[] = [];
  for (const string of strings) {
    const { text, location } = string;
    // eslint-disable-next-line no-control-regex
    if (/^[\u0000-\u007F]*$/.test(text)) continue;
    const tags = [...text.matchAll(TAGS)];
    if (tags.length > 0) {
      const hidden = tags.map((m) => decodeTags(m[0])).join(' ');
      findings.push(finding('unicode.tag_characters', 'critical', `hidden text: ${hidden}`.slice(0, 120), location));
    }
    const bidi = BIDI.exec(text);
    if (bidi) findings.push(finding('unicode.bidi_control', 'high', snippet(text, bidi.index, bidi.index + bidi[0].length), location));
    const invisible = INVISIBLE.exec(text);
    if (invisible) findings.push(finding('unicode.invisible', 'high', snippet(text, invisible.index, invisible.index + invisible[0].length), location));
    for (const word of text.matchAll(WORD)) {
      if (LATIN.test(word[0]) && LOOKALIKE_SCRIPT.test(word[0])) {
        const severity: Severity = string.kind === 'name' || string.kind === 'parameter' ? 'high' : 'medium';
        findings.push(finding('unicode.mixed_script', severity, snippet(text, word.index, word.index + word[0].length), location));
        break;
      }
    }
  }
  return findings;
}
