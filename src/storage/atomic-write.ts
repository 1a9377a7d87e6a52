// Crash-safe file primitives: atomic replace (temp file, fsync, rename, directory fsync) and durable mkdir and unlink.
import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';

let tempCounter = 0;

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
 * @example
 * await writeFileAtomic('/data/values/routes/chat.json', '{"model":"gpt"}\n');
 */
export async function writeFileAtomic(target: string, data: string): Promise<void> {
  const dir = path.dirname(target);
  const unique = `${process.pid}.${++tempCounter}.${randomBytes(4).toString('hex')}`;
  const temp = path.join(dir, `.${path.basename(target)}.${unique}.tmp`);
  const handle = await open(temp, 'wx');
  try {
    try {
      await handle.writeFile(data, 'utf8');
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
  await fsyncDir(path.dirname(target));
  return true;
}

/** Creates the single directory `dir` (its parent must exist) and makes its entry durable; an existing one is fine. */
export async function mkdirDurable(dir: string): Promise<void> {
  try {
    await mkdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return;
    throw error;
  }
  await fsyncDir(path.dirname(dir));
}

/** Creates `dir` and any missing ancestors, making each new entry durable. */
export async function mkdirTreeDurable(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  // Every directory from the first created one down to `dir` is new: fsync the parent of each.
  for (let current = dir; ; current = path.dirname(current)) {
    await fsyncDir(path.dirname(current));
    if (current === path.resolve(first) || current === path.dirname(current)) break;
  }
}
