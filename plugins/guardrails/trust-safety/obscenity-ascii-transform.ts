// obscenity's blacklist transformation of an ASCII text in one tight loop: a 128-entry table for its stateless steps, its own collapse step after.

/** A transformer as obscenity 0.4 builds them: simple (type 0, `transform`) or stateful (type 1, `factory`). */
interface TransformerContainer {
  type: number;
  transform?: (char: number) => number | undefined;
  factory?: () => { transform(char: number): number | undefined; reset(): void };
}

/**
 * Builds `(raw) => transformed text` that equals the text obscenity's `applyTransformers` makes from `raw` with
 * `transformers`, for a text of ASCII characters only; answers undefined for any other text (the caller then uses
 * obscenity's own pass). The simple steps (confusables, leetspeak, lower case) are applied once per ASCII code to fill
 * a table; the stateful steps are obscenity's own objects, run in order. Answers undefined (no fast path at all) when
 * the list has a shape this does not know, or a simple step maps an ASCII character to nothing.
 * @example
 * const fast = asciiTransformer(englishRecommendedTransformers.blacklistMatcherTransformers);
 * fast?.('Sh1t happens') // → 'shit hapens' (leet resolved, lower case, duplicates collapsed)
 */
export function asciiTransformer(transformers: readonly unknown[] = []): ((raw: string) => string | undefined) | undefined {
  const steps = transformers as TransformerContainer[];
  const simple = steps.filter((step) => step.type === 0);
  const stateful = steps.filter((step) => step.type === 1);
  // The table is only right when every simple step comes before every stateful one, as in the English preset.
  const firstStateful = steps.findIndex((step) => step.type === 1);
  if (steps.some((step, i) => (step.type === 0 ? typeof step.transform !== 'function' || (firstStateful >= 0 && i > firstStateful) : step.type !== 1 || typeof step.factory !== 'function'))) {
    return undefined;
  }
  const table = new Int32Array(128);
  for (let code = 0; code < 128; code += 1) {
    let char: number | undefined = code;
    for (const step of simple) char = char === undefined ? undefined : (step.transform as (c: number) => number | undefined)(char);
    if (char === undefined) return undefined;
    table[code] = char;
  }
  const states = stateful.map((step) => (step.factory as NonNullable<TransformerContainer['factory']>)());
  // The output is written as bytes and read back as Latin-1: one native call instead of spreading a list of codes into
  // String.fromCodePoint. A step that answers a code above 255 (none of the English ones) sends the text to obscenity's pass.
  let bytes = new Uint8Array(4096);
  return function transformAscii(raw: string): string | undefined {
    if (bytes.length < raw.length) bytes = new Uint8Array(raw.length);
    let count = 0;
    for (const state of states) state.reset();
    for (let i = 0; i < raw.length; i += 1) {
      const code = raw.charCodeAt(i);
      if (code >= 128) return undefined;
      let char: number | undefined = table[code] as number;
      for (let s = 0; s < states.length && char !== undefined; s += 1) char = (states[s] as { transform(c: number): number | undefined }).transform(char);
      if (char === undefined) continue;
      if (char > 255) return undefined;
      bytes[count] = char;
      count += 1;
    }
    return Buffer.from(bytes.buffer, bytes.byteOffset, count).toString('latin1');
  };
}
