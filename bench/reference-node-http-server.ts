// Benchmark reference: a bare node:http + undici proxy (no framework, no auth, no routing), the floor any Node proxy sits on.
import { createServer } from 'node:http';
import { Agent, request } from 'undici';

const upstream = process.argv[2];
if (!upstream) throw new Error('usage: reference-node-http-server.ts <upstream base URL>');
const agent = new Agent({ pipelining: 1, connections: 256 });
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    request(`${upstream}${req.url ?? '/'}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.concat(chunks), dispatcher: agent })
      .then(async (answer) => {
        res.writeHead(answer.statusCode, { 'content-type': String(answer.headers['content-type'] ?? 'application/json') });
        for await (const chunk of answer.body) res.write(chunk);
        res.end();
      })
      .catch(() => {
        res.writeHead(502).end();
      });
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ port: (server.address() as { port: number }).port })));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
