// In-memory storage adapter: a Map of cloned JSON values and arrays for logs; nothing survives the process.
import { Errors } from '../errors/error-registry.js';
import type { JsonValue, LogRecord, StorageAdapter, StorageEntry } from './storage-adapter.js';
import { keySegments } from './storage-key.js';

/**
 * Creates an in-memory storage adapter, for tests and single-process deployments without persistence.
 * @example
 * const gateway = createGateway({ storage: memoryStorage(), adminKeys: [...] });
 */
export function memoryStorage(): StorageAdapter {
  const values = new Map<string, string>();
  const logs = new Map<string, string[]>();
  /** Per log, the position of its first record minus one: positions are absolute, so trimming keeps them and a rewrite retires them. */
  const bases = new Map<string, number>();
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
    async appendJson(log, texts) {
      open();
      keySegments(log);
      const lines = logs.get(log) ?? [];
      lines.push(...texts);
      logs.set(log, lines);
      return true;
    },
    async readLog(log) {
      open();
      keySegments(log);
      return (logs.get(log) ?? []).map((line) => JSON.parse(line) as JsonValue);
    },
    async readLogBackward(log, { from, limit }) {
      open();
      keySegments(log);
      const lines = logs.get(log) ?? [];
      const base = bases.get(log) ?? 0;
      const newest = base + lines.length;
      const start = from ?? newest;
      if (from !== undefined && (!Number.isInteger(from) || from <= base || from > newest)) return undefined;
      const records: LogRecord[] = [];
      let position = start;
      for (; position > base && records.length < limit; position--) {
        records.push({ position, value: JSON.parse(lines[position - base - 1]!) as JsonValue });
      }
      return position > base ? { records, next: position } : { records };
    },
    async rewriteLog(log, records) {
      open();
      keySegments(log);
      bases.set(log, (bases.get(log) ?? 0) + (logs.get(log)?.length ?? 0));
      logs.set(log, records.map((record) => JSON.stringify(record)));
    },
    async trimLog(log, keep) {
      open();
      keySegments(log);
      const lines = logs.get(log);
      if (lines && lines.length > keep) {
        const removed = lines.length - Math.max(0, keep);
        lines.splice(0, removed);
        bases.set(log, (bases.get(log) ?? 0) + removed);
      }
    },
    async deleteLog(log) {
      open();
      keySegments(log);
      bases.set(log, (bases.get(log) ?? 0) + (logs.get(log)?.length ?? 0));
      return logs.delete(log);
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
