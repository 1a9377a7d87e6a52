// Measures how deeply a JSON text nests, in one linear pass with no recursion, so hostile nesting is refused before any parser or walker recurses.

/** The deepest nesting of objects and arrays the gateway accepts in a JSON body. */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text nests objects and arrays deeper than `maxDepth`. Brackets inside strings do not count.
 * It does not validate the JSON: run it before parsing, and let the parser report syntax errors.
 * @example
 * jsonDepthExceeds('{"a":[[1]]}', 2); // true: the depth is 3
 */
export function jsonDepthExceeds(text: string | Uint8Array, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const isString = typeof text === 'string';
  const length = text.length;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const code = isString ? text.charCodeAt(i) : text[i]!;
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > maxDepth) return true;
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) depth--;
  }
  return false;
}
