// The one contract suite every storage adapter must pass: values, key rules, logs, concurrency, close and reopen.
import assert from 'node:assert/strict';
import type { JsonValue, StorageAdapter } from '../../src/storage/storage-adapter.js';
import { Storage } from '../../src/storage/storage-facade.js';

/** What a contract run needs: a fresh adapter (not yet initialised), an optional reopen, and a cleanup. */
export interface ContractSubject {
  adapter: StorageAdapter;
  /** A new adapter over the same persisted state (not yet initialised); only for persistent adapters. */
  reopen?: () => Promise<StorageAdapter>;
  /** Closes every adapter made and removes what the subject created. */
  cleanup: () => Promise<void>;
}

const BAD_KEYS = ['', '/a', 'a/', 'a//b', '.', '..', 'a/..', '../a', 'a/./b', 'a/../b', 'a\\b', '..\\a', 'a\0b'];

async function rejectsWithCode(promise: Promise<unknown>, code: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.equal((error as { code?: unknown }).code, code);
    return true;
  });
}

/**
 * Defines the storage contract as mocha suites, run against a fresh subject for every test.
 * @example
 * storageContract('memory', async () => ({ adapter: memoryStorage(), cleanup: async () => {} }));
 */
export function storageContract(name: string, make: () => Promise<ContractSubject>): void {
  describe(`storage contract: ${name}`, () => {
    let subject: ContractSubject;
    let storage: StorageAdapter;

    beforeEach(async () => {
      subject = await make();
      storage = subject.adapter;
      await storage.init();
    });
    afterEach(async () => {
      await subject.cleanup();
    });

    /** Closes the current adapter and opens a new one over the same state, or skips the test. */
    async function reopened(context: Mocha.Context): Promise<StorageAdapter> {
      if (subject.reopen === undefined) context.skip();
      await storage.close();
      const next = await subject.reopen!();
      await next.init();
      return next;
    }

    describe('values', () => {
      it('answers undefined for a missing key', async () => {
        assert.equal(await storage.get('missing'), undefined);
      });

      it('stores and returns every kind of JSON value', async () => {
        const samples: JsonValue[] = ['text', '', 0, -1.5, true, false, null, [], [1, 'a', null], {}, { a: { b: [1, { c: 'd' }] } }];
        for (const [index, value] of samples.entries()) await storage.set(`sample/${index}`, value);
        for (const [index, value] of samples.entries()) assert.deepEqual(await storage.get(`sample/${index}`), value);
      });

      it('replaces a value and deletes a key', async () => {
        await storage.set('k', 1);
        await storage.set('k', { v: 2 });
        assert.deepEqual(await storage.get('k'), { v: 2 });
        assert.equal(await storage.delete('k'), true);
        assert.equal(await storage.delete('k'), false);
        assert.equal(await storage.get('k'), undefined);
        assert.deepEqual(await storage.list(''), []);
      });

      it('keeps a key apart from keys below it and from look-alike names', async () => {
        const keys = ['a', 'a/b', 'a/b/c', 'a.json', 'a.json/b', 'A', 'Ab', 'ab', 'a b', 'a%2Fb', 'é/ü', 'x.tmp', 'logs/x'];
        for (const key of keys) await storage.set(key, key);
        for (const key of keys) assert.equal(await storage.get(key), key);
        assert.deepEqual(
          (await storage.list('')).map((entry) => entry.key),
          [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)),
        );
      });

      it('lists entries by prefix, sorted by key', async () => {
        for (const key of ['b/2', 'a/1', 'b/10', 'b/1', 'c', 'bb']) await storage.set(key, key.length);
        assert.deepEqual(await storage.list('b/'), [
          { key: 'b/1', value: 3 },
          { key: 'b/10', value: 4 },
          { key: 'b/2', value: 3 },
        ]);
        assert.deepEqual((await storage.list('b')).map((entry) => entry.key), ['b/1', 'b/10', 'b/2', 'bb']);
        assert.deepEqual(await storage.list('zzz'), []);
      });

      it('stores copies: mutating given or returned objects does not change storage', async () => {
        const value = { list: [1, 2], nested: { n: 1 } };
        await storage.set('copy', value);
        value.list.push(3);
        value.nested.n = 99;
        const got = (await storage.get('copy')) as { list: number[]; nested: { n: number } };
        assert.deepEqual(got, { list: [1, 2], nested: { n: 1 } });
        got.list.push(4);
        const [entry] = await storage.list('copy');
        (entry!.value as { nested: { n: number } }).nested.n = 7;
        assert.deepEqual(await storage.get('copy'), { list: [1, 2], nested: { n: 1 } });
      });

      it('rejects keys that could escape their space with storage_key_invalid', async () => {
        for (const key of BAD_KEYS) {
          await rejectsWithCode(storage.get(key), 'storage_key_invalid');
          await rejectsWithCode(storage.set(key, 1), 'storage_key_invalid');
          await rejectsWithCode(storage.delete(key), 'storage_key_invalid');
        }
        assert.deepEqual(await storage.list(''), []);
      });
    });

    describe('logs', () => {
      it('appends records and reads them oldest first; an unknown log is empty', async () => {
        assert.deepEqual(await storage.readLog('requests'), []);
        await storage.append('requests', [{ n: 1 }, { n: 2 }]);
        await storage.append('requests', ['three', 4, null, [5]]);
        assert.deepEqual(await storage.readLog('requests'), [{ n: 1 }, { n: 2 }, 'three', 4, null, [5]]);
      });

      it('keeps records with newlines and unicode intact', async () => {
        const records: JsonValue[] = [{ text: 'line 1\nline 2\r\n' }, { text: 'é 😀 \u2028' }];
        await storage.append('text', records);
        assert.deepEqual(await storage.readLog('text'), records);
      });

      it('rewrites a log as a whole', async () => {
        await storage.append('r', [1, 2, 3]);
        await storage.rewriteLog('r', [3]);
        assert.deepEqual(await storage.readLog('r'), [3]);
        await storage.append('r', [4]);
        assert.deepEqual(await storage.readLog('r'), [3, 4]);
        await storage.rewriteLog('r', []);
        assert.deepEqual(await storage.readLog('r'), []);
      });

      it('trims a log to its newest records, and leaves a short or unknown log alone', async () => {
        await storage.append('t', [1, 2, 3, 4, 5]);
        await storage.trimLog('t', 2);
        assert.deepEqual(await storage.readLog('t'), [4, 5]);
        await storage.trimLog('t', 10);
        assert.deepEqual(await storage.readLog('t'), [4, 5]);
        await storage.append('t', [{ six: 6 }]);
        assert.deepEqual(await storage.readLog('t'), [4, 5, { six: 6 }]);
        await storage.trimLog('t', 0);
        assert.deepEqual(await storage.readLog('t'), []);
        await storage.trimLog('never-written', 3);
        assert.deepEqual(await storage.readLog('never-written'), []);
      });

      it('lists log names by prefix, sorted, apart from value keys', async () => {
        await storage.set('requests/2024-01-02', 'a value, not a log');
        await storage.append('requests/2024-01-02', [1]);
        await storage.append('requests/2024-01-01', [1]);
        await storage.append('requests', [1]);
        await storage.rewriteLog('audit', [1]);
        assert.deepEqual(await storage.listLogs('requests/'), ['requests/2024-01-01', 'requests/2024-01-02']);
        assert.deepEqual(await storage.listLogs(''), ['audit', 'requests', 'requests/2024-01-01', 'requests/2024-01-02']);
        assert.equal(await storage.get('requests/2024-01-02'), 'a value, not a log');
        assert.deepEqual(await storage.list(''), [{ key: 'requests/2024-01-02', value: 'a value, not a log' }]);
      });

      it('returns copies of records', async () => {
        await storage.append('c', [{ a: 1 }]);
        const [record] = (await storage.readLog('c')) as Array<{ a: number }>;
        record!.a = 2;
        assert.deepEqual(await storage.readLog('c'), [{ a: 1 }]);
      });

      it('11.3: reads a log newest first, page by page, with positions to continue from', async () => {
        assert.deepEqual(await storage.readLogBackward('none', { limit: 5 }), { records: [] });
        await storage.append('pages', [{ n: 1 }, { n: 2 }, { n: 3 }]);
        await storage.append('pages', [{ n: 4 }, { n: 5 }]);
        const first = await storage.readLogBackward('pages', { limit: 2 });
        assert.deepEqual(first!.records.map((r) => r.value), [{ n: 5 }, { n: 4 }]);
        assert.ok(first!.records[0]!.position > first!.records[1]!.position);
        assert.equal(typeof first!.next, 'number');
        const second = await storage.readLogBackward('pages', { from: first!.next, limit: 2 });
        assert.deepEqual(second!.records.map((r) => r.value), [{ n: 3 }, { n: 2 }]);
        const third = await storage.readLogBackward('pages', { from: second!.next, limit: 2 });
        assert.deepEqual(third!.records.map((r) => r.value), [{ n: 1 }]);
        assert.equal(third!.next, undefined);
        // `from` is inclusive: a position read earlier answers that record first.
        const again = await storage.readLogBackward('pages', { from: first!.records[1]!.position, limit: 1 });
        assert.deepEqual(again!.records.map((r) => r.value), [{ n: 4 }]);
        // Appends keep earlier positions valid.
        await storage.append('pages', [{ n: 6 }]);
        const after = await storage.readLogBackward('pages', { from: second!.records[0]!.position, limit: 10 });
        assert.deepEqual(after!.records.map((r) => r.value), [{ n: 3 }, { n: 2 }, { n: 1 }]);
        assert.equal(await storage.readLogBackward('pages', { from: 10 ** 9, limit: 1 }), undefined);
        const all = await storage.readLogBackward('pages', { limit: 100 });
        assert.deepEqual(all!.records.map((r) => (r.value as { n: number }).n), [6, 5, 4, 3, 2, 1]);
        assert.deepEqual(await storage.readLog('pages'), [1, 2, 3, 4, 5, 6].map((n) => ({ n })));
      });

      it('11.3: after a trim, a position still answers its own record or is refused', async () => {
        await storage.append('trimmed', [1, 2, 3, 4, 5].map((n) => ({ n, pad: 'p'.repeat(n) })));
        const page = await storage.readLogBackward('trimmed', { limit: 5 });
        await storage.trimLog('trimmed', 2);
        for (const record of page!.records) {
          const read = await storage.readLogBackward('trimmed', { from: record.position, limit: 1 });
          if (read !== undefined && read.records.length > 0) assert.ok([4, 5].includes((read.records[0]!.value as { n: number }).n));
        }
        const rest = await storage.readLogBackward('trimmed', { limit: 10 });
        assert.deepEqual(rest!.records.map((r) => (r.value as { n: number }).n), [5, 4]);
      });

      it('11.7: deletes a log entirely', async () => {
        await storage.append('apps/one', [1]);
        await storage.append('apps/two', [2]);
        assert.equal(await storage.deleteLog('apps/one'), true);
        assert.equal(await storage.deleteLog('apps/one'), false);
        assert.deepEqual(await storage.listLogs('apps/'), ['apps/two']);
        assert.deepEqual(await storage.readLog('apps/one'), []);
        await storage.append('apps/one', [3]);
        assert.deepEqual(await storage.readLog('apps/one'), [3]);
      });

      it('rejects bad log names with storage_key_invalid', async () => {
        for (const log of BAD_KEYS) {
          await rejectsWithCode(storage.append(log, [1]), 'storage_key_invalid');
          await rejectsWithCode(storage.readLog(log), 'storage_key_invalid');
          await rejectsWithCode(storage.rewriteLog(log, [1]), 'storage_key_invalid');
          await rejectsWithCode(storage.readLogBackward(log, { limit: 1 }), 'storage_key_invalid');
          await rejectsWithCode(storage.deleteLog(log), 'storage_key_invalid');
        }
        assert.deepEqual(await storage.listLogs(''), []);
      });
    });

    describe('concurrency', () => {
      it('persists many concurrent sets on distinct keys', async () => {
        await Promise.all(Array.from({ length: 100 }, (_, i) => storage.set(`many/${i % 7}/${i}`, { i })));
        const entries = await storage.list('many/');
        assert.equal(entries.length, 100);
        for (const { key, value } of entries) assert.equal(key.endsWith(`/${(value as { i: number }).i}`), true);
      });

      it('applies concurrent writes to one key in call order', async () => {
        await Promise.all(Array.from({ length: 50 }, (_, i) => storage.set('one', { i, pad: 'x'.repeat((50 - i) * 100) })));
        assert.equal(((await storage.get('one')) as { i: number }).i, 49);
        const deleted = await Promise.all([storage.set('mix', 1), storage.delete('mix'), storage.set('mix', 2), storage.delete('mix')]);
        assert.deepEqual(deleted, [undefined, true, undefined, true]);
        assert.equal(await storage.get('mix'), undefined);
        await Promise.all([storage.delete('mix'), storage.set('mix', 3)]);
        assert.equal(await storage.get('mix'), 3);
      });

      it('keeps concurrent appends whole and never interleaved', async () => {
        const writers = 20;
        const perWriter = 5;
        await Promise.all(
          Array.from({ length: writers }, (_, w) =>
            storage.append('busy', Array.from({ length: perWriter }, (_, i) => ({ w, i, pad: 'y'.repeat(w * 50) }))),
          ),
        );
        const records = (await storage.readLog('busy')) as Array<{ w: number; i: number }>;
        assert.equal(records.length, writers * perWriter);
        for (let start = 0; start < records.length; start += perWriter) {
          const batch = records.slice(start, start + perWriter);
          assert.deepEqual(batch.map((r) => r.i), [0, 1, 2, 3, 4]);
          assert.equal(new Set(batch.map((r) => r.w)).size, 1);
        }
        assert.equal(new Set(records.map((r) => r.w)).size, writers);
      });
    });

    describe('close', () => {
      it('fails every later call with storage_closed', async () => {
        await storage.set('k', 1);
        await storage.close();
        await storage.close();
        await rejectsWithCode(storage.get('k'), 'storage_closed');
        await rejectsWithCode(storage.set('k', 2), 'storage_closed');
        await rejectsWithCode(storage.delete('k'), 'storage_closed');
        await rejectsWithCode(storage.list(''), 'storage_closed');
        await rejectsWithCode(storage.append('l', [1]), 'storage_closed');
        await rejectsWithCode(storage.readLog('l'), 'storage_closed');
        await rejectsWithCode(storage.rewriteLog('l', [1]), 'storage_closed');
        await rejectsWithCode(storage.listLogs(''), 'storage_closed');
        await rejectsWithCode(storage.readLogBackward('l', { limit: 1 }), 'storage_closed');
        await rejectsWithCode(storage.deleteLog('l'), 'storage_closed');
      });

      it('finishes pending writes before closing', async function () {
        const pending = [storage.set('late', { done: true }), storage.append('late-log', [1, 2])];
        await storage.close();
        await Promise.all(pending);
        const next = await reopened(this);
        try {
          assert.deepEqual(await next.get('late'), { done: true });
          assert.deepEqual(await next.readLog('late-log'), [1, 2]);
        } finally {
          await next.close();
        }
      });
    });

    describe('long names', () => {
      it('11.7: stores, lists and reopens keys and logs with 128-character upper-case and unicode names', async function () {
        const long = 'A'.repeat(100);
        const longest = `Z${'Q'.repeat(127)}`;
        const unicode = 'é'.repeat(60);
        await storage.set(`applications/${long}`, { name: long });
        await storage.set(`application-keys/${longest}/k1`, { id: 'k1' });
        await storage.set(`application-keys/${longest}/k2`, { id: 'k2' });
        await storage.set(`x/${unicode}`, 1);
        await storage.append(`chronicles/${longest}`, [{ n: 1 }]);
        const check = async (adapter: StorageAdapter): Promise<void> => {
          assert.deepEqual(await adapter.get(`applications/${long}`), { name: long });
          assert.deepEqual((await adapter.list(`application-keys/${longest}/`)).map((e) => e.key), [
            `application-keys/${longest}/k1`,
            `application-keys/${longest}/k2`,
          ]);
          assert.deepEqual(await adapter.get(`x/${unicode}`), 1);
          assert.deepEqual(await adapter.listLogs('chronicles/'), [`chronicles/${longest}`]);
          assert.deepEqual(await adapter.readLog(`chronicles/${longest}`), [{ n: 1 }]);
        };
        await check(storage);
        if (subject.reopen === undefined) return;
        const next = await reopened(this);
        try {
          await check(next);
          assert.equal(await next.delete(`application-keys/${longest}/k1`), true);
          assert.equal(await next.delete(`application-keys/${longest}/k2`), true);
          assert.deepEqual(await next.list(`application-keys/`), []);
        } finally {
          await next.close();
        }
      });
    });

    describe('reopen', () => {
      it('keeps values, deletes and logs across a reopen', async function () {
        await storage.set('keep', { a: [1, 2] });
        await storage.set('keep/child', 'child');
        await storage.set('gone', 1);
        await storage.delete('gone');
        await storage.set('A.json', 'odd name');
        await storage.append('log/one', [{ n: 1 }]);
        await storage.append('log/one', [{ n: 2 }]);
        await storage.append('log/two', ['x']);
        await storage.rewriteLog('log/two', ['y']);
        const next = await reopened(this);
        try {
          assert.deepEqual(await next.list(''), [
            { key: 'A.json', value: 'odd name' },
            { key: 'keep', value: { a: [1, 2] } },
            { key: 'keep/child', value: 'child' },
          ]);
          assert.deepEqual(await next.listLogs(''), ['log/one', 'log/two']);
          assert.deepEqual(await next.readLog('log/one'), [{ n: 1 }, { n: 2 }]);
          assert.deepEqual(await next.readLog('log/two'), ['y']);
          await next.append('log/one', [{ n: 3 }]);
          assert.deepEqual(await next.readLog('log/one'), [{ n: 1 }, { n: 2 }, { n: 3 }]);
        } finally {
          await next.close();
        }
      });
    });

    it('guarded appends (through the facade) write only while the guarding value exists with the given fields', async () => {
      const facade = new Storage(storage);
      const guard = { key: 'owners/a', equals: { created_at: 'one', deleting_at: null } };
      assert.equal(await facade.appendGuarded('guarded/a', [1], guard), false, 'no guarding value');
      await storage.set('owners/a', { created_at: 'one', n: 2 });
      assert.equal(await facade.appendGuarded('guarded/a', [2], guard), true);
      await storage.set('owners/a', { created_at: 'one', deleting_at: 'now' });
      assert.equal(await facade.appendGuarded('guarded/a', [3], guard), false, 'a field that must be absent is there');
      await storage.set('owners/a', { created_at: 'two' });
      assert.equal(await facade.appendGuarded('guarded/a', [4], guard), false, 'a field with another value');
      assert.deepEqual(await storage.readLog('guarded/a'), [2]);
      assert.deepEqual(await storage.listLogs('guarded/'), ['guarded/a']);
    });

    it('appends records given as JSON texts (through the facade), guarded or not, as append stores them', async () => {
      const facade = new Storage(storage);
      const records: JsonValue[] = [{ text: 'line 1\nline 2', n: 1 }, 'two', [3], { emoji: 'é 😀 \u2028' }];
      assert.equal(await facade.appendJson('texts', records.map((record) => JSON.stringify(record))), true);
      await facade.append('texts', [5]);
      assert.deepEqual(await storage.readLog('texts'), [...records, 5]);
      const page = await storage.readLogBackward('texts', { limit: 2 });
      assert.deepEqual(page!.records.map((record) => record.value), [5, { emoji: 'é 😀 \u2028' }]);
      const guard = { key: 'owners/t', equals: { created_at: 'one' } };
      assert.equal(await facade.appendJson('texts', ['6'], guard), false, 'no guarding value');
      await storage.set('owners/t', { created_at: 'one' });
      assert.equal(await facade.appendJson('texts', ['7', '{"eight":8}'], guard), true);
      assert.deepEqual((await storage.readLog('texts')).slice(-2), [7, { eight: 8 }]);
      assert.equal(await facade.appendJson('texts', []), true);
      assert.equal((await storage.readLog('texts')).length, 7);
    });
  });
}
