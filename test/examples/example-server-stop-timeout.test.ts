// The example server's stop deadline: with PostgreSQL hung, SIGTERM still ends the process within GATEWAY_STOP_TIMEOUT_SECONDS, and says what it gave up.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { startExampleServer } from '../helpers/example-server-process.js';
import { dropSchema, requirePostgres, TEST_DATABASE_URL, testSchemaName } from '../helpers/postgres-test.js';
import { tcpCut, type TcpCut } from '../helpers/tcp-cut.js';

const ADMIN_KEY = 'stop-timeout-admin-key-0123456789';

describe('the example server stops in time when storage hangs', function () {
  requirePostgres();
  this.timeout(60_000);
  let relay: TcpCut;
  let schema: string;
  beforeEach(async () => {
    schema = testSchemaName();
    const target = new URL(TEST_DATABASE_URL);
    relay = await tcpCut(target.hostname, Number(target.port || 5432));
  });
  afterEach(async () => {
    await relay.restore();
    await relay.close();
    await dropSchema(schema);
  });

  it('SIGTERM with PostgreSQL hung and an admin write waiting on it: the process exits 1 at GATEWAY_STOP_TIMEOUT_SECONDS, logging why', async () => {
    const target = new URL(TEST_DATABASE_URL);
    target.port = String(relay.port);
    const server = await startExampleServer({
      GATEWAY_ADMIN_KEY: ADMIN_KEY,
      GATEWAY_DATABASE_URL: target.toString(),
      GATEWAY_DATABASE_SCHEMA: schema,
      GATEWAY_REDIS_URL: '',
      GATEWAY_STOP_TIMEOUT_SECONDS: '2',
    });
    try {
      await relay.hang();
      // An admin write that waits on the hung database: closing waits for it (and for the pool) until their own timeouts.
      const write = fetch(`${server.base}/v1/admin/applications`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': ADMIN_KEY }, body: JSON.stringify({ name: 'late' }) }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const exited = once(server.child, 'exit');
      const signalled = performance.now();
      server.child.kill('SIGTERM');
      const [code] = await exited;
      const seconds = (performance.now() - signalled) / 1000;
      assert.equal(code, 1);
      assert.ok(seconds >= 1.9 && seconds < 6, `exited after ${seconds.toFixed(1)} s`);
      assert.match(server.output(), /shutdown did not finish in time/);
      await write;
    } finally {
      server.child.kill('SIGKILL');
    }
  });
});
