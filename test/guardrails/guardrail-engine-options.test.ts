// GuardrailEngine.resolveOptions: defaults are filled into a copy (the policy's stored options never change), whatever the options hold.
import assert from 'node:assert/strict';
import { defineGuardrail, GuardrailEngine } from '../../src/index.js';

const echo = defineGuardrail<{ mode: string; words: string[]; nested: { depth: number } }, object>({
  name: 'options_echo',
  description: 'Answers nothing; its options have defaults at two levels.',
  defaultThreshold: 0.5,
  optionsSchema: {
    type: 'object',
    additionalProperties: false,
    properties: {
      mode: { type: 'string', default: 'fast' },
      words: { type: 'array', items: { type: 'string' }, default: [] },
      nested: { type: 'object', properties: { depth: { type: 'number', default: 1 } }, default: {} },
      when: {},
    },
  },
  evaluate: () => ({ results: {}, flagged: false }),
});

describe('GuardrailEngine options', () => {
  let engine: GuardrailEngine;
  before(async () => {
    engine = new GuardrailEngine();
    await engine.add(echo);
  });

  it('fills defaults into a copy and leaves the stored options as they were', () => {
    const stored = { words: ['a'], nested: {}, threshold: 0.7, enabled: true };
    const resolved = engine.resolveOptions('options_echo', stored);
    assert.deepEqual(resolved, { mode: 'fast', words: ['a'], nested: { depth: 1 } });
    assert.deepEqual(stored, { words: ['a'], nested: {}, threshold: 0.7, enabled: true });
    assert.notEqual(resolved.words, stored.words);
    assert.notEqual(resolved.nested, stored.nested);
  });

  it('gives every call its own copy of the defaults', () => {
    const first = engine.resolveOptions('options_echo');
    (first.words as string[]).push('changed');
    assert.deepEqual(engine.resolveOptions('options_echo').words, []);
  });

  it('copies options that are not plain JSON too (a Date) without changing them', () => {
    const when = new Date('2026-11-25T00:00:00Z');
    const stored = { when };
    const resolved = engine.resolveOptions('options_echo', stored);
    assert.ok(resolved.when instanceof Date);
    assert.notEqual(resolved.when, when);
    assert.equal((resolved.when as Date).getTime(), when.getTime());
    assert.deepEqual(Object.keys(stored), ['when']);
  });

  it('rejects a JSON "__proto__" key as an unknown option instead of setting a prototype', () => {
    const stored = JSON.parse('{"__proto__": {"mode": "polluted"}}') as Record<string, unknown>;
    assert.throws(() => engine.resolveOptions('options_echo', stored), (error: { statusCode?: number }) => error.statusCode === 400);
    assert.equal(({} as Record<string, unknown>).mode, undefined);
  });
});
