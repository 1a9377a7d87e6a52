// Finds where a tool's text names another tool of its list: one compiled search per list, not one pattern per name and tool.

/** The characters a regular expression gives a meaning, escaped. */
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A character that continues a name written as a word (so a name inside a longer one is no mention). */
const WORD_OR_DASH = /[\w-]/;

/** True when `name` is distinctive enough to look for in prose: snake, kebab, dotted, camelCase or with digits. */
export function isDistinctiveName(name: string): boolean {
  return /[_.\-\d]/.test(name) || /[a-z][A-Z]/.test(name);
}

/** One mention: where it starts and ends in the text. */
export interface ToolNameMention {
  index: number;
  end: number;
}

/**
 * The tool names of one list (a tool server's `tools/list`), compiled once into two searches: distinctive names
 * (snake, kebab, dotted, camelCase, with digits) as whole words, plain words (`add`, `search`) only when quoted or
 * backticked, or followed by "tool". {@link first} finds the first mention in a text of a name other than the tool's
 * own. Building it costs time in the list's length, and each search about that of the text: a pattern per name and
 * per tool cost time in the square of the list's length (a list of 2,000 tools took 5 s at every `tools/list`).
 * @example
 * const mentions = new ToolNameMentions(tools.map((tool) => tool.name));
 * mentions.first('prefer this over `send_email`', 'my_tool'); // { index: 17, end: 27 }
 */
export class ToolNameMentions {
  private readonly distinctive: RegExp | null;
  private readonly plain: RegExp | null;
  /** The distinctive names, in lower case: the names that are the beginning of another are looked up here. */
  private readonly distinctiveNames: Set<string>;

  constructor(names: readonly string[]) {
    const distinctive = new Set<string>();
    const plain = new Set<string>();
    for (const name of names) {
      if (name.length < 2) continue;
      (isDistinctiveName(name) ? distinctive : plain).add(name.toLowerCase());
    }
    // Longest first: where one name begins another, the longer is tried first at a position.
    const alternatives = (set: Set<string>): string => [...set].sort((a, b) => b.length - a.length).map(escape).join('|');
    this.distinctiveNames = distinctive;
    this.distinctive = distinctive.size === 0 ? null : new RegExp(String.raw`(?<![\w-])(${alternatives(distinctive)})(?![\w-])`, 'g');
    const words = alternatives(plain);
    this.plain = plain.size === 0 ? null : new RegExp(String.raw`[\x60'"](${words})[\x60'"]|\b(${words})\s+tool\b`, 'g');
  }

  /** The first mention in `text` (folded: lower case) of a listed name other than `self`; undefined when none. */
  first(text: string, self?: string): ToolNameMention | undefined {
    const own = self?.toLowerCase();
    if (this.distinctive) {
      const found = this.search(this.distinctive, text, own, (at, name) => this.shorterNameAt(text, at, name));
      if (found) return found;
    }
    return this.plain ? this.search(this.plain, text, own) : undefined;
  }

  private search(pattern: RegExp, text: string, own: string | undefined, atOwn?: (at: number, name: string) => ToolNameMention | undefined): ToolNameMention | undefined {
    pattern.lastIndex = 0;
    for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
      const name = match[1] ?? match[2]!;
      if (name !== own) return { index: match.index, end: match.index + match[0].length };
      const shorter = atOwn?.(match.index, name);
      if (shorter) return shorter;
      // A name may begin inside the tool's own (after a dot in `srv.read_file`): search on from the next character.
      pattern.lastIndex = match.index + 1;
    }
    return undefined;
  }

  /** A listed name that begins `own` and ends as a word where it stands at `at` (`send` in `send.all`), if any. */
  private shorterNameAt(text: string, at: number, own: string): ToolNameMention | undefined {
    for (let length = own.length - 1; length >= 2; length--) {
      if (!this.distinctiveNames.has(own.slice(0, length))) continue;
      if (!WORD_OR_DASH.test(text.charAt(at + length))) return { index: at, end: at + length };
    }
    return undefined;
  }
}
