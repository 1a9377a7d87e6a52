// Benchmark reference: the smallest Express + undici proxy (no auth, routing, retries or headers), in the two shapes a naive proxy takes.
import express from 'express';
import { Agent, request } from 'undici';

const upstream = process.argv[2];
// `json` (the default): express.json() in, res.json() out, so the answer is parsed, serialised and given an ETag, as
// most Express proxies written by hand do. `end`: the answer's bytes are passed on with res.end, a lighter floor.
const answerShape = process.argv[3] ?? 'json';
if (!upstream || !['json', 'end'].includes(answerShape)) throw new Error('usage: reference-proxy-server.js <upstream base URL> [json|end]');
const agent = new Agent({ pipelining: 1, connections: 256 });
const app = express();
app.disable('x-powered-by');
app.post('/v1/chat/completions', express.json(), async (req, res) => {
  const answer = await request(`${upstream}/v1/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(req.body),
    dispatcher: agent,
  });
  if (answerShape === 'json') {
    res.status(answer.statusCode).json(await answer.body.json());
    return;
  }
  const body = Buffer.from(await answer.body.arrayBuffer());
  res.status(answer.statusCode).type('application/json').end(body);
});
const server = app.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as { port: number }).port })));
server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () => server.close(() => process.exit(0)));
