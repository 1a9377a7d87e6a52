// The example server's observability over real HTTP: OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT is set, /metrics behind its token, pino request lines.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startExampleServer, stopExampleServer, type ExampleServer } from '../helpers/example-server-process.js';

const ADMIN_KEY = 'example-observability-admin-key-0123456789';
const METRICS_TOKEN = 'example-metrics-token-0123456789';

/** A loopback OTLP/HTTP collector that keeps every request body it receives. */
async function startCollector(): Promise<{ server: Server; url: string; bodies: Array<{ path: string; body: string }> }> {
  const bodies: Array<{ path: string; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      bodies.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, bodies };
}

describe('examples/server.ts observability', function () {
  this.timeout(60_000);
  let dir: string;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  let server: ExampleServer;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-example-otel-'));
    collector = await startCollector();
    server = await startExampleServer({
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      GATEWAY_DATA_DIR: dir,
      GATEWAY_METRICS_TOKEN: METRICS_TOKEN,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'gateway-under-test',
    });
  });
  after(async () => {
    if (server) await stopExampleServer(server.child);
    collector?.server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('15.3: with OTEL_EXPORTER_OTLP_ENDPOINT set, spans are exported over OTLP/HTTP; 15.4: each request is a JSON line with its id', async () => {
    const res = await fetch(`${server.base}/v1/admin/routes`, { headers: { 'x-api-key': ADMIN_KEY, 'x-request-id': 'example-req-1' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-request-id'), 'example-req-1');
    const deadline = Date.now() + 15_000;
    while (!collector.bodies.some((entry) => entry.path === '/v1/traces' && entry.body.includes('GET /v1/admin')) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const traces = collector.bodies.find((entry) => entry.path === '/v1/traces' && entry.body.includes('GET /v1/admin'));
    assert.ok(traces, `a span reached the collector; got ${collector.bodies.map((entry) => entry.path).join(', ')}`);
    assert.ok(traces.body.includes('gateway-under-test'), 'with the service name');
    const line = server
      .output()
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .map((text) => JSON.parse(text) as Record<string, unknown>)
      .find((entry) => entry.message === 'request' && entry.request_id === 'example-req-1');
    assert.ok(line, 'the request line');
    assert.equal(line.status, 200);
    assert.equal(typeof line.trace_id, 'string');
    assert.ok(!server.output().includes(ADMIN_KEY.slice(4)), 'the admin key never appears in a line');
  });

  it('15.2: /metrics answers with the bearer token only', async () => {
    assert.equal((await fetch(`${server.base}/metrics`)).status, 401);
    const res = await fetch(`${server.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(await res.text(), /^# HELP gateway_requests_total /m);
  });
});
