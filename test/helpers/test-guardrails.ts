// Small guardrail plugins for pipeline tests, written as users write theirs: a word filter, one that throws, one that is slow.
import { defineGuardrail, type GuardrailPlugin } from '../../src/index.js';

/** Flags text containing any of `words` (default `forbidden`); results `{ matched }`. */
export const bannedWords = defineGuardrail<{ words: string[] }, { matched: string[] }>({
  name: 'banned_words',
  defaultThreshold: 0.5,
  optionsSchema: { type: 'object', properties: { words: { type: 'array', items: { type: 'string' }, default: ['forbidden'] } } },
  evaluate(text, { options }) {
    const matched = options.words.filter((word) => text.toLowerCase().includes(word));
    return { results: { matched }, flagged: matched.length > 0, triggered: matched };
  },
});

/** Always throws. */
export const brokenGuardrail = defineGuardrail({
  name: 'broken_guardrail',
  defaultThreshold: 0.5,
  evaluate() {
    throw new Error('the model server is down');
  },
});

/** When each slow guardrail call started and ended (ms, `performance.now()`), newest last: tests read overlaps from it. */
export const slowCalls: Array<{ name: string; started: number; ended: number }> = [];

/** A guardrail that answers after `delay_ms` (default 300) without flagging, and notes its call in {@link slowCalls}. */
function slowGuardrailNamed(name: string): GuardrailPlugin<{ delay_ms: number }, { waited: number }> {
  return defineGuardrail<{ delay_ms: number }, { waited: number }>({
    name,
    defaultThreshold: 0.5,
    optionsSchema: { type: 'object', properties: { delay_ms: { type: 'integer', default: 300 } } },
    async evaluate(_text, { options }) {
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, options.delay_ms));
      slowCalls.push({ name, started, ended: performance.now() });
      return { results: { waited: options.delay_ms }, flagged: false };
    },
  });
}

/** Answers after `delay_ms` (default 300) without flagging. */
export const slowGuardrail = slowGuardrailNamed('slow_guardrail');
/** A second slow guardrail, so a test can see two run at once. */
export const otherSlowGuardrail = slowGuardrailNamed('slow_guardrail_b');

/** Every test guardrail, for `createGateway({ plugins })`. */
export const TEST_GUARDRAILS: Array<GuardrailPlugin<object, unknown>> = [bannedWords, brokenGuardrail, slowGuardrail, otherSlowGuardrail];
