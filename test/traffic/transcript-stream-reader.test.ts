// TranscriptStreamReader: a transcription stream's text and usage from its SSE bytes, however they are cut, within its bound.
import assert from 'node:assert/strict';
import { MAX_TRANSCRIPT_CHARS, TranscriptStreamReader } from '../../src/traffic/transcript-stream-reader.js';

const event = (payload: Record<string, unknown>): string => `data: ${JSON.stringify(payload)}\r\n\r\n`;

describe('TranscriptStreamReader', () => {
  it('reads events cut anywhere, a multi-byte character included, and answers the deltas joined when no done event came', () => {
    const bytes = Buffer.from(event({ type: 'transcript.text.delta', delta: 'Grüße ' }) + event({ type: 'transcript.text.delta', delta: 'aus Köln' }) + 'data: [DONE]\n\n');
    const reader = new TranscriptStreamReader();
    for (let at = 0; at < bytes.length; at += 3) reader.read(bytes.subarray(at, at + 3));
    assert.deepEqual(reader.answer(), { text: 'Grüße aus Köln' });
  });

  it("answers the done event's text and usage, and nothing for a stream without events", () => {
    const reader = new TranscriptStreamReader();
    reader.read(Buffer.from(event({ type: 'transcript.text.delta', delta: 'Hel' }) + event({ type: 'transcript.text.done', text: 'Hello.', usage: { type: 'tokens', input_tokens: 2, output_tokens: 1, total_tokens: 3 } }).trimEnd()));
    assert.deepEqual(reader.answer(), { text: 'Hello.', usage: { type: 'tokens', input_tokens: 2, output_tokens: 1, total_tokens: 3 } });
    assert.equal(new TranscriptStreamReader().answer(), undefined);
  });

  it('keeps at most MAX_TRANSCRIPT_CHARS of text, and stops reading at a line longer than that', () => {
    const reader = new TranscriptStreamReader();
    const delta = event({ type: 'transcript.text.delta', delta: 'x'.repeat(64 * 1024) });
    for (let n = 0; n < 40; n++) reader.read(Buffer.from(delta));
    assert.equal(reader.answer()?.text.length, MAX_TRANSCRIPT_CHARS);
    const long = new TranscriptStreamReader();
    long.read(Buffer.from(event({ type: 'transcript.text.delta', delta: 'kept' })));
    for (let n = 0; n < 20; n++) long.read(Buffer.from('y'.repeat(64 * 1024)));
    long.read(Buffer.from(`\n\n${event({ type: 'transcript.text.delta', delta: ' not read' })}`));
    assert.deepEqual(long.answer(), { text: 'kept' });
  });
});
