// Crash-safe file primitives: atomic replace (temp file, fsync, rename, directory fsync) and durable mkdir and unlink.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, rmdir, unlink, type FileHandle } from 'node:fs/promises';
import path from 'node:path';

let tempCounter = 0;

/** Mode of every data file: only the gateway's user may read it (Chronicles hold prompts, values may hold keys). */
export const FILE_MODE = 0o600;
/** Mode of every data directory. */
export const DIR_MODE = 0o700;

/** True for the temp-file names made by {@link writeFileAtomic}; leftovers of a crash may be removed. */
export function isTempFileName(name: string): boolean {
  return name.startsWith('.') && name.endsWith('.tmp');
}

/**
 * Makes `dir`'s entries durable. Windows cannot open a directory for fsync, so there it is a no-op.
 */
export async function fsyncDir(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `target` with `data` atomically: after a crash at any moment the file holds either the old or
 * the new content, never a mix. The temp file sits beside the target (same file system, so rename is atomic).
 * `data` is the text, or a function that writes the content to the open temp file (for content streamed from elsewhere).
 * The file is created with mode 0600.
 * @example
 * await writeFileAtomic('/data/values/routes/chat.json', '{"model":"gpt"}\n');
 */
export async function writeFileAtomic(target: string, data: string | ((handle: FileHandle) => Promise<void>)): Promise<void> {
  const dir = path.dirname(target);
  const unique = `${process.pid}.${++tempCounter}.${randomBytes(4).toString('hex')}`;
  const temp = path.join(dir, `.${path.basename(target)}.${unique}.tmp`);
  const handle = await open(temp, 'wx', FILE_MODE);
  try {
    try {
      if (typeof data === 'string') await handle.writeFile(data, 'utf8');
      else await data(handle);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await fsyncDir(dir);
}

/** Removes `target` durably; resolves `false` if it did not exist. */
export async function unlinkDurable(target: string): Promise<boolean> {
  try {
    await unlink(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  try {
    await fsyncDir(path.dirname(target));
  } catch (error) {
    // A concurrent delete removed the directory once it was empty: the removal is durable through its parent.
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return true;
}

/** Removes `dir` if it is empty, durably; resolves `false` when it is not empty or already gone. */
export async function rmdirIfEmpty(dir: string): Promise<boolean> {
  try {
    await rmdir(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') return false;
    throw error;
  }
  await fsyncDir(path.dirname(dir)).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error; // the parent was removed in turn
  });
  return true;
}

/** Creates the single directory `dir` (its parent must exist) and makes its entry durable; an existing one is fine. */
export async function mkdirDurable(dir: string): Promise<void> {
  try {
    await mkdir(dir, { mode: DIR_MODE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  await fsyncDir(path.dirname(dir));
}

/** Creates `dir` and any missing ancestors, making each new entry durable. */
export async function mkdirTreeDurable(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true, mode: DIR_MODE });
  if (first === undefined) return;
  // Every directory from the first created one down to `dir` is new: fsync the parent of each.
  for (let current = dir; ; current = path.dirname(current)) {
    await fsyncDir(path.dirname(current));
    if (current === path.resolve(first) || current === path.dirname(current)) break;
  }
}
