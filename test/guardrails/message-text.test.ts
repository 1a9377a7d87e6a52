// The text of an answer, as the request log records it: the same as joining the answer's guardrail text slots.
import assert from 'node:assert/strict';
import { answerSlots, answerText, joinSlots } from '../../src/guardrails/pipeline/message-text.js';

describe('answerText', () => {
  it('gives the joined slot text of chat, multi-choice, content-part and completion answers', () => {
    const answers: Array<Record<string, unknown>> = [
      { choices: [{ message: { role: 'assistant', content: 'Hello.' } }] },
      { choices: [{ message: { content: 'one' } }, { message: { content: 'two' } }, { text: 'three' }] },
      { choices: [{ message: { content: [{ type: 'text', text: 'a' }, { type: 'image_url' }, { type: 'text', text: 'b' }] } }] },
      { choices: [{ message: { content: null, tool_calls: [] } }] },
      { choices: [{ text: 'completion' }] },
      { choices: 'not a list' },
      { data: [{ embedding: [0.1] }] },
    ];
    for (const answer of answers) assert.equal(answerText(answer), joinSlots(answerSlots(answer)), JSON.stringify(answer));
    assert.equal(answerText(answers[1]!), 'one\ntwo\nthree');
  });
});
