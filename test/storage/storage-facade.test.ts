// The storage facade: concurrent read-modify-write never loses an update, on both adapters.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileStorage, memoryStorage, Storage } from '../../src/index.js';

for (const kind of ['memory', 'file'] as const) {
  describe(`Storage facade over ${kind} storage`, () => {
    let dir: string;
    let storage: Storage;
    beforeEach(async () => {
      dir = await mkdtemp(join(tmpdir(), 'gateway-facade-'));
      storage = new Storage(kind === 'memory' ? memoryStorage() : fileStorage({ dir }));
      await storage.init();
    });
    afterEach(async () => {
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('applies 200 concurrent increments without losing one', async () => {
      await Promise.all(Array.from({ length: 200 }, () => storage.update<number>('counter', (n) => (n ?? 0) + 1)));
      assert.equal(await storage.get('counter'), 200);
    });

    it('deletes a key when update returns undefined', async () => {
      await storage.set('gone', { a: 1 });
      await storage.update('gone', () => undefined);
      assert.equal(await storage.get('gone'), undefined);
    });

    it('runs locked check-then-write sequences one at a time', async () => {
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) =>
          storage.locked('unique', async () => {
            if ((await storage.get('unique')) !== undefined) throw new Error('taken');
            await storage.set('unique', i);
          }),
        ),
      );
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    });
  });
}
