// In-memory storage adapter: a Map of cloned JSON values and arrays for logs; nothing survives the process.
import { Errors } from '../errors/error-registry.js';
import type { JsonValue, StorageAdapter, StorageEntry } from './storage-adapter.js';
import { keySegments } from './storage-key.js';

/**
 * Creates an in-memory storage adapter, for tests and single-process deployments without persistence.
 * @example
 * const gateway = createGateway({ storage: memoryStorage(), adminKeys: [...] });
 */
export function memoryStorage(): StorageAdapter {
  const values = new Map<string, string>();
  const logs = new Map<string, string[]>();
  let closed = false;

  const open = (): void => {
    if (closed) throw Errors.storageClosed();
  };

  return {
    name: 'memory',
    async init() {},
    async get(key) {
      open();
      keySegments(key);
      const raw = values.get(key);
      return raw === undefined ? undefined : (JSON.parse(raw) as JsonValue);
    },
    async set(key, value) {
      open();
      keySegments(key);
      values.set(key, JSON.stringify(value));
    },
    async delete(key) {
      open();
      keySegments(key);
      return values.delete(key);
    },
    async list(prefix) {
      open();
      const entries: StorageEntry[] = [];
      for (const [key, raw] of values) {
        if (key.startsWith(prefix)) entries.push({ key, value: JSON.parse(raw) as JsonValue });
      }
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async append(log, records) {
      open();
      keySegments(log);
      const lines = logs.get(log) ?? [];
      for (const record of records) lines.push(JSON.stringify(record));
      logs.set(log, lines);
    },
    async readLog(log) {
      open();
      keySegments(log);
      return (logs.get(log) ?? []).map((line) => JSON.parse(line) as JsonValue);
    },
    async rewriteLog(log, records) {
      open();
      keySegments(log);
      logs.set(log, records.map((record) => JSON.stringify(record)));
    },
    async trimLog(log, keep) {
      open();
      keySegments(log);
      const lines = logs.get(log);
      if (lines && lines.length > keep) lines.splice(0, lines.length - Math.max(0, keep));
    },
    async listLogs(prefix) {
      open();
      return [...logs.keys()].filter((name) => name.startsWith(prefix)).sort();
    },
    async close() {
      closed = true;
    },
  };
}
