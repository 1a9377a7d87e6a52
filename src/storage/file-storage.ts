// File storage adapter: JSON value files loaded into memory at init, atomic durable writes, and JSONL logs.
import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Errors } from '../errors/error-registry.js';
import { DIR_MODE, fsyncDir, mkdirDurable, mkdirTreeDurable, rmdirIfEmpty, unlinkDurable, writeFileAtomic } from './atomic-write.js';
import { encodeSegment, isHashedName, keyFilePath, NAME_SIDECAR_SUFFIX, scanKeyFiles } from './file-key-path.js';
import { appendDurable, cutTornTail, readJsonLines, readJsonLinesBackward, toJsonLines, trimJsonLines } from './file-log.js';
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
/** How often a write retries when a concurrent delete removed its (then empty) directory. */
const DIR_RACE_RETRIES = 3;

/**
 * Creates a file storage adapter. `init()` loads every value into memory, so reads do no I/O; `set` and
 * `delete` resolve once the change is on disk (atomic replace, fsync), in call order per key. Logs are
 * JSONL files under `logs/`, appended with fsync. Corrupt files stop `init()`; nothing is reset.
 * Files are created 0600 and directories 0700; a delete removes the directories it leaves empty.
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
  const sidecars = new Map<string, Promise<void>>();
  /** Writes in flight per directory (and each ancestor): such a directory is never removed as empty. */
  const dirUsers = new Map<string, number>();
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

  /** Writes the sidecar of a shortened name once (it is never removed, so a file under that name can always be read back). */
  const ensureSidecar = (dir: string, name: string, segment: string): Promise<void> => {
    const file = path.join(dir, name + NAME_SIDECAR_SUFFIX);
    let ready = sidecars.get(file);
    if (ready === undefined) {
      ready = writeFileAtomic(file, segment);
      sidecars.set(file, ready);
      ready.catch(() => sidecars.delete(file));
    }
    return ready;
  };

  /** Creates the directories of `segments` under `base`, with the sidecar of every shortened name, before the file is written. */
  const prepareParents = async (base: string, segments: string[]): Promise<void> => {
    let dir = base;
    for (const [index, segment] of segments.entries()) {
      const name = encodeSegment(segment);
      if (isHashedName(name)) {
        await ensureDir(dir);
        await ensureSidecar(dir, name, segment);
      }
      if (index < segments.length - 1) dir = path.join(dir, name);
    }
    await ensureDir(dir);
  };

  /** The directories between `file` and `base`, nearest first. */
  const parentsOf = (file: string, base: string): string[] => {
    const found: string[] = [];
    for (let dir = path.dirname(file); dir !== base && dir.startsWith(base); dir = path.dirname(dir)) found.push(dir);
    return found;
  };

  /** Runs a write of `file` with its directories marked in use, retrying if a concurrent delete removed one. */
  const writing = async <T>(file: string, base: string, segments: string[], work: () => Promise<T>): Promise<T> => {
    const parents = parentsOf(file, base);
    for (const dir of parents) dirUsers.set(dir, (dirUsers.get(dir) ?? 0) + 1);
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          await prepareParents(base, segments);
          return await work();
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || attempt >= DIR_RACE_RETRIES) throw error;
          for (const dir of parents) dirs.delete(dir);
        }
      }
    } finally {
      for (const dir of parents) {
        const count = (dirUsers.get(dir) ?? 1) - 1;
        if (count === 0) dirUsers.delete(dir);
        else dirUsers.set(dir, count);
      }
    }
  };

  /** Removes the directories `file` leaves empty, nearest first, except those a write is using. */
  const pruneParents = async (file: string, base: string): Promise<void> => {
    for (const dir of parentsOf(file, base)) {
      if (dirUsers.has(dir)) return;
      dirs.delete(dir);
      if (!(await rmdirIfEmpty(dir))) return;
    }
  };

  const load = async (): Promise<void> => {
    await mkdirTreeDurable(valuesDir);
    await mkdirTreeDurable(logsDir);
    // Data written by older versions was 0755/0644: closing the directories is enough to protect every file below.
    // Best effort: a directory the process may not chmod (another owner, a volume without modes) still works.
    for (const dir of [root, valuesDir, logsDir]) await chmod(dir, DIR_MODE).catch(() => undefined);
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

  /** Appends whole JSONL lines to a log's file, durably, in the log's queue. */
  async function appendLines(log: string, text: string): Promise<void> {
    const segments = await usable(log);
    const file = logFile(segments);
    return logQueue.run(log, () =>
      writing(file, logsDir, segments, async () => {
        try {
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
      }),
    );
  }

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
      return valueQueue.run(key, () =>
        writing(file, valuesDir, segments, async () => {
          await writeFileAtomic(file, `${text}\n`);
          values.set(key, text);
        }),
      );
    },
    async delete(key) {
      const segments = await usable(key);
      const file = keyFilePath(valuesDir, segments, VALUE_SUFFIX);
      return valueQueue.run(key, async () => {
        if (!values.has(key)) return false;
        await unlinkDurable(file);
        values.delete(key);
        await pruneParents(file, valuesDir);
        return true;
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
      await appendLines(log, toJsonLines(records));
    },
    async appendJson(log, texts) {
      if (texts.some((text) => text.includes('\n'))) throw new TypeError('appendJson: a record text holds a line break');
      await appendLines(log, texts.length === 0 ? '' : `${texts.join('\n')}\n`);
      return true;
    },
    async readLog(log) {
      const file = logFile(await usable(log));
      return logQueue.run(log, () => readJsonLines(file));
    },
    async readLogBackward(log, { from, limit }) {
      const file = logFile(await usable(log));
      // Appends only add complete lines after the offsets read, and trims replace the file (the open handle keeps
      // the old one), so a read needs no queue: it never waits behind a batch of appends.
      return readJsonLinesBackward(file, from, limit);
    },
    async rewriteLog(log, records) {
      const segments = await usable(log);
      const file = logFile(segments);
      const text = toJsonLines(records);
      return logQueue.run(log, () =>
        writing(file, logsDir, segments, async () => {
          await writeFileAtomic(file, text);
          cleanTails.add(log);
          logNames.add(log);
        }),
      );
    },
    async trimLog(log, keep) {
      const file = logFile(await usable(log));
      return logQueue.run(log, async () => {
        await trimJsonLines(file, keep, writeFileAtomic);
        cleanTails.add(log);
      });
    },
    async deleteLog(log) {
      const file = logFile(await usable(log));
      return logQueue.run(log, async () => {
        const existed = await unlinkDurable(file);
        logNames.delete(log);
        cleanTails.delete(log);
        await pruneParents(file, logsDir);
        return existed;
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
