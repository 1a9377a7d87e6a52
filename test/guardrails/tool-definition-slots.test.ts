// The text slots of tool definitions and response formats: which strings are text, which are read-only names, and odd shapes read without throwing.
import assert from 'node:assert/strict';
import { chatDefinitionSlots } from '../../src/guardrails/pipeline/tool-definition-slots.js';

const describeSlots = (body: Record<string, unknown>) => chatDefinitionSlots(body).map((slot) => `${slot.fixed ? 'name' : 'text'}:${slot.text}`);

describe('chatDefinitionSlots', () => {
  it('gives one slot per distinct text, whose transform rewrites every place it is, and counts every string against the bound', () => {
    const field = () => ({ type: 'string', description: 'Mail a@b.c', enum: ['x', 'y'] });
    const body = JSON.parse(JSON.stringify({ tools: [1, 2, 3].map((n) => ({ type: 'function', function: { name: `t${n}`, description: 'Mail a@b.c', parameters: { type: 'object', properties: { to: field(), cc: field() } } } })) }));
    assert.deepEqual(describeSlots(body), ['name:t1', 'text:Mail a@b.c', 'name:to', 'text:x', 'text:y', 'name:cc', 'name:t2', 'name:t3']);
    chatDefinitionSlots(body).find((slot) => slot.text === 'Mail a@b.c')!.replace('Mail ***');
    const text = JSON.stringify(body);
    assert.ok(!text.includes('a@b.c'), text);
    assert.equal(text.split('Mail ***').length - 1, 9);
    // The same text 10,001 times is one slot, but 10,001 strings read: over the bound.
    const repeated = { tools: [{ function: { parameters: { enum: Array.from({ length: 10_001 }, () => 'same') } } }] };
    assert.throws(() => chatDefinitionSlots(repeated), /more than 10000 strings/);
  });


  it('reads descriptions, titles, enum, default and example strings as text, and names and structure read-only', () => {
    const body = JSON.parse(JSON.stringify({
      tools: [{ type: 'function', function: { name: 'send', description: 'Sends mail', parameters: {
        type: 'object', required: ['to'], $comment: 'internal',
        properties: { to: { type: ['string', 'null'], format: 'email', title: 'To', enum: ['a'], default: { who: 'me' }, examples: ['b'] } },
        'x-hint': 'extra',
      } } }],
      functions: [{ name: 'old', description: 'legacy' }],
      response_format: { type: 'json_schema', json_schema: { name: 'out', description: 'Out', schema: { items: [{ $ref: '#/x' }] } } },
    }));
    assert.deepEqual(describeSlots(body), [
      'name:send', 'text:Sends mail', 'name:to', 'text:internal', 'name:email', 'text:To', 'text:a', 'name:who', 'text:me', 'text:b',
      'name:x-hint', 'text:extra', 'name:old', 'text:legacy', 'name:out', 'text:Out', 'name:#/x',
    ]);
    for (const slot of chatDefinitionSlots(body)) slot.replace(`<${slot.text}>`);
    const fn = body.tools[0].function;
    assert.equal(fn.name, 'send', 'names are never rewritten');
    assert.equal(fn.description, '<Sends mail>');
    assert.deepEqual(Object.keys(fn.parameters.properties), ['to']);
    assert.deepEqual(fn.parameters.properties.to.default, { who: '<me>' });
    assert.equal(fn.parameters.properties.to.format, 'email');
  });

  it('reads odd shapes without throwing, and an own __proto__ key as a name and text like any other', () => {
    const odd: Array<Record<string, unknown>> = [
      { tools: 'x', functions: {}, response_format: 'text' },
      { tools: [null, 5, [], { function: 'f' }, { function: { parameters: [null, 1, 'loose', [[]]] } }, { custom: { format: 7 } }] },
      { functions: [{ parameters: 'a string schema' }], response_format: { json_schema: { schema: true } } },
      { tools: [{ function: { parameters: { properties: [], required: 'to', enum: 'x', anyOf: {}, type: 5 } } }] },
    ];
    for (const body of odd) assert.doesNotThrow(() => chatDefinitionSlots(body), JSON.stringify(body));
    const hostile = JSON.parse('{"tools":[{"function":{"parameters":{"properties":{"__proto__":{"description":"d"}},"__proto__":"p"}}}]}') as Record<string, unknown>;
    const slots = chatDefinitionSlots(hostile);
    assert.deepEqual(slots.map((slot) => `${slot.fixed ? 'name' : 'text'}:${slot.text}`), ['name:__proto__', 'text:d', 'text:p']);
    for (const slot of slots) slot.replace('changed');
    assert.equal(Object.getPrototypeOf((hostile.tools as Array<{ function: { parameters: object } }>)[0]!.function.parameters), Object.prototype);
  });
});
