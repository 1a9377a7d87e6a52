// An MCP client that leaves before the tool server answers writes no error line: the tool server did not fail.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { connect } from 'node:net';
import request from 'supertest';
import { capturingLogger, type LoggedLine } from '../helpers/capturing-logger.js';
import { eventually } from '../helpers/eventually.js';
import { holdingStorage } from '../helpers/holding-storage.js';
import { createMcpFixture, type McpFixture } from '../helpers/mcp-fixture.js';
import { TEST_KEYS } from '../helpers/test-gateway.js';
import { startRawToolServer, type RawToolServer } from './raw-tool-server.js';

/** How long to wait for what the gateway does once the client has gone: long enough for a loaded machine. */
const SERVER_SIDE_MS = 15_000;
const eventuallyLoaded = <T>(check: () => T | Promise<T>): Promise<T> => eventually(check, SERVER_SIDE_MS);

describe('an MCP client that leaves before the tool server answers', function () {
  this.timeout(30_000);
  let m: McpFixture;
  let raw: RawToolServer;
  let lines: LoggedLine[];
  const held: ServerResponse[] = [];
  let hold: ReturnType<typeof holdingStorage>;
  beforeEach(async () => {
    lines = [];
    hold = holdingStorage();
    m = await createMcpFixture({ logger: capturingLogger(lines), logRequests: true, storage: hold.adapter });
    raw = await startRawToolServer();
    // The raw server holds every tool call: the test's client leaves while it waits.
    raw.onCall = (_message, res) => void held.push(res);
    const created = await request(m.app).post('/v1/admin/mcp/registries').set('x-api-key', TEST_KEYS.superAdmin).send({ name: 'raw', url: raw.url });
    assert.equal(created.status, 201, created.text);
  });
  afterEach(async () => {
    for (const res of held.splice(0)) res.destroy();
    await m.close();
    await raw.close();
  });

  it('its tool call is recorded as left by the client, and no "request failed" line blames the tool server', async () => {
    const abort = new AbortController();
    const sent = fetch(`${m.base}/v1/mcp/raw`, {
      method: 'POST',
      signal: abort.signal,
      headers: { authorization: `Bearer ${m.developerKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'probe', arguments: {} } }),
    }).catch(() => undefined);
    await eventuallyLoaded(() => assert.equal(held.length, 1, 'the tool server holds the call'));
    abort.abort();
    await sent;
    // The abandoned call's Chronicles entry is recorded as the proxy gives up on it, before its error is answered.
    const invocation = await eventuallyLoaded(async () => {
      const res = await request(m.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200);
      const found = (res.body.data as Array<{ tool_invocations?: Array<{ tool: string; error?: unknown }> }>).flatMap((entry) => entry.tool_invocations ?? []).find((call) => call.tool === 'probe');
      assert.ok(found, JSON.stringify(res.body.data).slice(0, 500));
      return found;
    });
    assert.equal(invocation.error, 'the client left before the answer');
    assert.deepEqual(lines.filter((line) => line.level === 'error'), [], 'no error line for a client that left');
  });

  it('a call whose client left while it was screened never reaches the tool server', async () => {
    // The tool's state, read from storage at the call's first screening, is held.
    const read = hold.arm('mcp-tools/raw/probe');
    const body = JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'probe', arguments: {} } });
    const socket = connect(Number(new URL(m.base).port), '127.0.0.1');
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`POST /v1/mcp/raw HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer ${m.developerKey}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    await read.reached;
    socket.destroy();
    // The gateway has seen the client go once the request's line is written (at the close).
    await eventuallyLoaded(() => assert.ok(lines.some((line) => line.message === 'request' && line.fields?.path === '/v1/mcp/raw')));
    read.release();
    const invocation = await eventuallyLoaded(async () => {
      const res = await request(m.app).get('/v1/admin/applications/app/chronicles').set('x-api-key', TEST_KEYS.viewer).expect(200);
      const found = (res.body.data as Array<{ tool_invocations?: Array<{ tool: string; error?: unknown }> }>).flatMap((entry) => entry.tool_invocations ?? []).find((call) => call.tool === 'probe');
      assert.ok(found, JSON.stringify(res.body.data).slice(0, 500));
      return found;
    });
    assert.equal(invocation.error, 'the client left before the answer');
    assert.equal(raw.calls().length, 0, 'the tool server never received the call');
    assert.deepEqual(lines.filter((line) => line.level === 'error'), []);
  });

  it('a server stream (GET) whose client left before the tool server answered is ended at the tool server too', async () => {
    // The tool server takes the GET and sends nothing yet.
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    let reached!: () => void;
    const arrived = new Promise<void>((resolve) => (reached = resolve));
    raw.onGet = (_req, res) => {
      res.once('close', () => upstreamClosed());
      reached();
    };
    const abort = new AbortController();
    const opened = fetch(`${m.base}/v1/mcp/raw`, { signal: abort.signal, headers: { authorization: `Bearer ${m.developerKey}`, accept: 'text/event-stream' } }).catch(() => undefined);
    await arrived;
    abort.abort();
    await opened;
    // Without it, the server stream (which has no idle timeout) would be opened for nobody once the tool server answers.
    await closed;
    assert.deepEqual(lines.filter((line) => line.level === 'error'), []);
  });
});
