// Tests of the incremental SSE parser and formatter: spec field rules, line endings, and chunks split anywhere.
import assert from 'node:assert/strict';
import { createSseParser, formatSse, type ParsedSseEvent } from '../../src/http/sse-parser.js';
import { isGatewayError } from '../../src/index.js';

function parseAll(chunks: Array<string | Uint8Array>): ParsedSseEvent[] {
  const events: ParsedSseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

describe('createSseParser', () => {
  it('parses data-only events and named events', () => {
    const events = parseAll(['data: {"a":1}\n\nevent: message_start\ndata: {"b":2}\n\n']);
    assert.deepEqual(events, [{ data: '{"a":1}' }, { event: 'message_start', data: '{"b":2}' }]);
  });

  it('joins multi-line data with \\n and removes exactly one leading space', () => {
    const events = parseAll(['data: first\ndata:  second\ndata:third\ndata\n\n']);
    assert.deepEqual(events, [{ data: 'first\n second\nthird\n' }]);
  });

  it('ignores comments, retry, unknown fields, and blank lines without data', () => {
    const events = parseAll([': keep-alive\n\nretry: 3000\nfoo: bar\n\nevent: ping\n\ndata: x\n\n']);
    // The `event: ping` without data dispatches nothing and does not leak into the next event.
    assert.deepEqual(events, [{ data: 'x' }]);
  });

  it('accepts \\r\\n, \\r and \\n line endings, mixed', () => {
    const events = parseAll(['event: a\r\ndata: 1\r\n\r\ndata: 2\r\rdata: 3\n\n']);
    assert.deepEqual(events, [{ event: 'a', data: '1' }, { data: '2' }, { data: '3' }]);
  });

  it('gives the same events whatever the split point, even between \\r and \\n', () => {
    const text = 'event: delta\r\ndata: {"text":"héllo"}\r\n\r\n: comment\r\ndata: a\r\ndata: b\r\n\r\n';
    const expected = [{ event: 'delta', data: '{"text":"héllo"}' }, { data: 'a\nb' }];
    for (let cut = 0; cut <= text.length; cut++) {
      assert.deepEqual(parseAll([text.slice(0, cut), text.slice(cut)]), expected, `cut at ${cut}`);
    }
  });

  it('decodes UTF-8 split inside a multi-byte sequence, fed byte by byte', () => {
    const bytes = Buffer.from('data: {"t":"日本語 🎉 ü"}\n\n', 'utf8');
    const chunks = [...bytes].map((byte) => Uint8Array.of(byte));
    assert.deepEqual(parseAll(chunks), [{ data: '{"t":"日本語 🎉 ü"}' }]);
  });

  it('decodes UTF-8 split across every byte boundary of a Buffer', () => {
    const bytes = Buffer.from('data: 🎉é\n\n', 'utf8');
    for (let cut = 0; cut <= bytes.length; cut++) {
      assert.deepEqual(parseAll([bytes.subarray(0, cut), bytes.subarray(cut)]), [{ data: '🎉é' }], `cut at ${cut}`);
    }
  });

  it('discards an event that the stream ends before its blank line', () => {
    assert.deepEqual(parseAll(['data: complete\n\ndata: partial']), [{ data: 'complete' }]);
    assert.deepEqual(parseAll(['data: partial\n']), []);
  });

  it('keeps the last event id across events and ignores an id with NUL', () => {
    const events = parseAll(['id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\n']);
    assert.deepEqual(events, [{ id: '7', data: 'a' }, { id: '7', data: 'b' }, { id: '7', data: 'c' }]);
  });

  it('drops a leading byte-order mark, in bytes or text', () => {
    assert.deepEqual(parseAll([Buffer.from('\uFEFFdata: a\n\n', 'utf8')]), [{ data: 'a' }]);
    assert.deepEqual(parseAll(['\uFEFFdata: a\n\n']), [{ data: 'a' }]);
  });

  it('treats a field name without a colon as an empty value', () => {
    assert.deepEqual(parseAll(['event\ndata\n\n']), [{ event: '', data: '' }]);
  });

  it('refuses a line longer than maxEventLength with upstream_invalid_response', () => {
    const parser = createSseParser(() => undefined, { maxEventLength: 10 });
    assert.throws(() => parser.push('data: 0123456789abc'), (error: unknown) => isGatewayError(error) && error.code === 'upstream_invalid_response');
  });

  it('reads a line that never ends (16 Mi characters in 4 KiB pieces) in time that grows with its length, not its square', () => {
    // A hostile or broken upstream's endless line: each piece without a line break is kept, and the line joined once.
    // Copying the whole pending line for every piece took about a minute of CPU here for this input, blocking every request.
    const parser = createSseParser(() => undefined);
    const piece = new TextEncoder().encode('x'.repeat(4096));
    const started = performance.now();
    parser.push('data: ');
    for (let index = 0; index < 4095; index++) parser.push(piece);
    parser.push('\n\n');
    assert.throws(() => { for (;;) parser.push(piece); }, (error) => isGatewayError(error) && error.code === 'upstream_invalid_response');
    const elapsed = performance.now() - started;
    assert.ok(elapsed < 5000, `${Math.round(elapsed)} ms`);
  });

  it('dispatches an event whose line arrived in many pieces, whole', () => {
    const events = parseAll(['data: {"a":', '"', 'x'.repeat(10), '"', '}', '\r', '\n', '\r\n', 'data: ', 'b\n', '\n']);
    assert.deepEqual(events, [{ data: `{"a":"${'x'.repeat(10)}"}` }, { data: 'b' }]);
  });

  it('refuses pushes after end', () => {
    const parser = createSseParser(() => undefined);
    parser.end();
    assert.throws(() => parser.push('data: x\n\n'));
  });
});

describe('formatSse', () => {
  it('formats a payload, an event name and multi-line payloads', () => {
    assert.equal(formatSse('[DONE]'), 'data: [DONE]\n\n');
    assert.equal(formatSse('{"a":1}', 'message_start'), 'event: message_start\ndata: {"a":1}\n\n');
    assert.equal(formatSse('a\nb\r\nc'), 'data: a\ndata: b\ndata: c\n\n');
  });

  it('round-trips through the parser', () => {
    const payloads = ['{"x":"y"}', 'two\nlines', ''];
    const text = payloads.map((payload) => formatSse(payload, 'e')).join('');
    assert.deepEqual(parseAll([text]), payloads.map((data) => ({ event: 'e', data })));
  });

  it('refuses an event name with a line break', () => {
    assert.throws(() => formatSse('x', 'a\nb'), TypeError);
  });
});
