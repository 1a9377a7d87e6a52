// The example server binds HOST, 127.0.0.1 by default, so it is reachable only from this machine unless told otherwise.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitWithin, spawnGateway } from '../helpers/gateway-process.js';

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

describe('example server address', function () {
  this.timeout(90_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'gateway-host-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  for (const host of [undefined, '127.0.0.2']) {
    it(`15.8: ${host ? `HOST=${host} binds that address only` : 'without HOST it binds 127.0.0.1 only'}`, async () => {
      const env = { PORT: '0', HOST: host ?? '', GATEWAY_DATA_DIR: join(dir, host ?? 'default'), GATEWAY_ADMIN_KEY: 'gwa_host_test_admin_key_0123456789' };
      const gateway = await spawnGateway(process.execPath, ['--import', 'tsx', 'examples/server.ts'], { env });
      try {
        const bound = host ?? '127.0.0.1';
        const other = host ? '127.0.0.1' : '127.0.0.2';
        assert.equal(new URL(gateway.base).hostname, bound, 'the server logs the address it listens on');
        assert.equal(await reachable(`http://${bound}:${gateway.port}/healthz`), true);
        assert.equal(await reachable(`http://${other}:${gateway.port}/healthz`), false, `reachable at ${other}`);
      } finally {
        gateway.child.kill('SIGTERM');
      }
      assert.equal(await exitWithin(gateway, 20_000), 0);
    });
  }
});
