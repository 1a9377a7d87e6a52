// File storage adapter: JSON value files loaded into memory at init, atomic durable writes, and JSONL logs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Errors } from '../errors/error-registry.js';
import { fsyncDir, mkdirDurable, mkdirTreeDurable, unlinkDurable, writeFileAtomic } from './atomic-write.js';
import { keyFilePath, scanKeyFiles } from './file-key-path.js';
import { appendDurable, cutTornTail, readJsonLines, toJsonLines, trimJsonLines } from './file-log.js';
import { keyedWriteQueue } from './keyed-write-queue.js';
import type { JsonValue, StorageAdapter, StorageEntry } from './storage-adapter.js';
import { keySegments } from './storage-key.js';

/** Options of {@link fileStorage}. */
export interface FileStorageOptions {
  /** The directory that holds `values/` and `logs/`; created if missing. One process per directory. */
  dir: string;
}

const VALUE_SUFFIX = '.json';
const LOG_SUFFIX = '.jsonl';

/**
 * Creates a file storage adapter. `init()` loads every value into memory, so reads do no I/O; `set` and
 * `delete` resolve once the change is on disk (atomic replace, fsync), in call order per key. Logs are
 * JSONL files under `logs/`, appended with fsync. Corrupt files stop `init()`; nothing is reset.
 * @example
 * const storage = fileStorage({ dir: './data' });
 * await storage.init();
 * await storage.set('routes/chat', { model: 'gpt-4o' });
 */
export function fileStorage(options: FileStorageOptions): StorageAdapter {
  const root = path.resolve(options.dir);
  const valuesDir = path.join(root, 'values');
  const logsDir = path.join(root, 'logs');
  const values = new Map<string, string>();
  const logNames = new Set<string>();
  const cleanTails = new Set<string>(); // logs whose file is known to end with a complete line
  const valueQueue = keyedWriteQueue();
  const logQueue = keyedWriteQueue();
  const dirs = new Map<string, Promise<void>>();
  let loading: Promise<void> | undefined;
  let loaded = false;
  let closed = false;

  /** Creates a key's directory once, parent first, so every new entry is durable before a file lands in it. */
  const ensureDir = (dir: string): Promise<void> => {
    let ready = dirs.get(dir);
    if (ready === undefined) {
      ready = ensureDir(path.dirname(dir)).then(() => mkdirDurable(dir));
      dirs.set(dir, ready);
      ready.catch(() => dirs.delete(dir));
    }
    return ready;
  };

  const load = async (): Promise<void> => {
    await mkdirTreeDurable(valuesDir);
    await mkdirTreeDurable(logsDir);
    dirs.set(valuesDir, Promise.resolve());
    dirs.set(logsDir, Promise.resolve());
    for (const { key, file } of await scanKeyFiles(valuesDir, VALUE_SUFFIX)) {
      const text = await readFile(file, 'utf8');
      try {
        JSON.parse(text);
      } catch (cause) {
        throw Errors.storageCorrupt([file, cause instanceof Error ? cause.message : String(cause)], { cause });
      }
      values.set(key, text.trimEnd());
    }
    for (const { key } of await scanKeyFiles(logsDir, LOG_SUFFIX)) logNames.add(key);
    loaded = true;
  };

  const init = (): Promise<void> => {
    if (closed) return Promise.reject(Errors.storageClosed());
    loading ??= load();
    return loading;
  };

  /** Checks that the adapter is open, validates `key`, and loads on first use if `init()` was not awaited. */
  const usable = async (key: string | undefined): Promise<string[]> => {
    if (closed) throw Errors.storageClosed();
    const segments = key === undefined ? [] : keySegments(key);
    if (!loaded) await init();
    return segments;
  };

  const logFile = (segments: string[]): string => keyFilePath(logsDir, segments, LOG_SUFFIX);

  return {
    name: 'file',
    init,
    async get(key) {
      await usable(key);
      const text = values.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as JsonValue);
    },
    async set(key, value) {
      const segments = await usable(key);
      const text = JSON.stringify(value);
      if (text === undefined) throw Errors.validation([`The value for storage key ${key} is not JSON.`]);
      const file = keyFilePath(valuesDir, segments, VALUE_SUFFIX);
      return valueQueue.run(key, async () => {
        await ensureDir(path.dirname(file));
        await writeFileAtomic(file, `${text}\n`);
        values.set(key, text);
      });
    },
    async delete(key) {
      const segments = await usable(key);
      const file = keyFilePath(valuesDir, segments, VALUE_SUFFIX);
      return valueQueue.run(key, async () => {
        if (!values.has(key)) return false;
        await unlinkDurable(file);
        return values.delete(key);
      });
    },
    async list(prefix) {
      await usable(undefined);
      const entries: StorageEntry[] = [];
      for (const [key, text] of values) {
        if (key.startsWith(prefix)) entries.push({ key, value: JSON.parse(text) as JsonValue });
      }
      return entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    async append(log, records) {
      const file = logFile(await usable(log));
      const text = toJsonLines(records);
      return logQueue.run(log, async () => {
        try {
          await ensureDir(path.dirname(file));
          if (!cleanTails.has(log)) await cutTornTail(file);
          await appendDurable(file, text);
          // A new file's directory entry must be durable too.
          if (!logNames.has(log)) await fsyncDir(path.dirname(file));
        } catch (error) {
          cleanTails.delete(log); // a failed append may have left a partial line
          throw error;
        }
        cleanTails.add(log);
        logNames.add(log);
      });
    },
    async readLog(log) {
      const file = logFile(await usable(log));
      return logQueue.run(log, () => readJsonLines(file));
    },
    async rewriteLog(log, records) {
      const file = logFile(await usable(log));
      const text = toJsonLines(records);
      return logQueue.run(log, async () => {
        await ensureDir(path.dirname(file));
        await writeFileAtomic(file, text);
        cleanTails.add(log);
        logNames.add(log);
      });
    },
    async trimLog(log, keep) {
      const file = logFile(await usable(log));
      return logQueue.run(log, async () => {
        await trimJsonLines(file, keep, writeFileAtomic);
        cleanTails.add(log);
      });
    },
    async listLogs(prefix) {
      await usable(undefined);
      return [...logNames].filter((name) => name.startsWith(prefix)).sort();
    },
    async close() {
      closed = true;
      await loading?.catch(() => undefined);
      await Promise.all([valueQueue.idle(), logQueue.idle()]);
    },
  };
}
