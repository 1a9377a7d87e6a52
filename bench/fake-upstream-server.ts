// Benchmark upstream: a loopback OpenAI-compatible server with a small fixed answer and an immediate short stream.
import { createServer } from 'node:http';

const completion = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1700000000,
  model: 'bench-model',
  choices: [{ index: 0, message: { role: 'assistant', content: 'Hello from the benchmark upstream.' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
});
const chunk = (content: string): string =>
  `data: ${JSON.stringify({ id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1700000000, model: 'bench-model', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const streamBody = [chunk('Hello'), chunk(' from the'), chunk(' benchmark upstream.'), 'data: [DONE]\n\n'];
/** A longer stream of `count` one-word chunks, asked for with `"stream_chunks":<count>` in the body, to measure per-chunk relay cost. */
const longStreams = new Map<number, string[]>();
function streamOf(count: number): string[] {
  let parts = longStreams.get(count);
  if (!parts) {
    parts = [...Array.from({ length: count }, (_, i) => chunk(` w${i}`)), 'data: [DONE]\n\n'];
    longStreams.set(count, parts);
  }
  return parts;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (data: Buffer) => chunks.push(data));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    if (body.includes('"stream":true')) {
      const count = Number(/"stream_chunks":(\d+)/.exec(body.toString('latin1'))?.[1] ?? 0);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const part of count > 0 ? streamOf(count) : streamBody) res.write(part);
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) });
    res.end(completion);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
