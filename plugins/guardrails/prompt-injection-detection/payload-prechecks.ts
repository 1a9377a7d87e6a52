// Linear scans that tell when a text cannot hold an encoded payload, so the payload patterns of normalise.ts need not run.

/** True when `text` has 16 characters of BASE64_RUN's alphabet in a row: one linear scan before the regular expression. */
export function hasBase64Run(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    const inAlphabet = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 43 || c === 47 || c === 95 || c === 45;
    run = inAlphabet ? run + 1 : 0;
    if (run >= 16) return true;
  }
  return false;
}

/**
 * False only when `text` cannot hold a HEX_RUN match. Such a match has at least 16 hex digits in runs of two or more
 * (its pairs), and between them at most three other characters in a row (a separator, then a "\\x" or "0x" prefix,
 * whose "0" may stand alone). One linear scan before the regular expression.
 */
export function mayHoldHexRun(text: string): boolean {
  let digits = 0;
  let run = 0;
  let gap = 0;
  for (let i = 0; i <= text.length; i += 1) {
    const c = i < text.length ? text.charCodeAt(i) : 32;
    if ((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70)) {
      run += 1;
      continue;
    }
    if (run >= 2) {
      digits += run;
      gap = 0;
      if (digits >= 16) return true;
    } else {
      gap += run;
    }
    run = 0;
    gap += 1;
    if (gap >= 4) digits = 0;
  }
  return false;
}
