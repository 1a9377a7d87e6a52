// JSONL log files: durable appends that first cut away a torn last line, and reads that skip one.
import { open, readFile } from 'node:fs/promises';
import { Errors } from '../errors/error-registry.js';
import type { JsonValue } from './storage-adapter.js';

const NEWLINE = 0x0a;
const TAIL_CHUNK = 64 * 1024;

/**
 * Serializes records as JSONL. The newline ends (commits) each line: a last line without one was torn
 * by a crash during an append that never resolved, so readers skip it and the next append removes it.
 */
export function toJsonLines(records: JsonValue[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/**
 * Truncates a torn (unterminated) last line off `file`, if there is one. A missing file is fine.
 */
export async function cutTornTail(file: string): Promise<void> {
  let handle;
  try {
    handle = await open(file, 'r+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    const chunk = Buffer.alloc(TAIL_CHUNK);
    let keep = 0;
    for (let end = size; end > 0; ) {
      const start = Math.max(0, end - TAIL_CHUNK);
      const { bytesRead } = await handle.read(chunk, 0, end - start, start);
      const index = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
      if (index !== -1) {
        keep = start + index + 1;
        break;
      }
      end = start;
    }
    if (keep < size) {
      await handle.truncate(keep);
      await handle.sync();
    }
  } finally {
    await handle.close();
  }
}

/** Appends `text` (whole JSONL lines) to `file`, creating it, and resolves once the data is on disk. */
export async function appendDurable(file: string, text: string): Promise<void> {
  const handle = await open(file, 'a');
  try {
    await handle.appendFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Reads every record of `file`, oldest first; a missing file is empty. A torn last line is skipped;
 * any other line that is not JSON fails with `storage_corrupt`.
 */
export async function readJsonLines(file: string): Promise<JsonValue[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const lines = text.split('\n');
  lines.pop(); // '' after the final newline, or the torn last line
  return lines.map((line, index) => {
    try {
      return JSON.parse(line) as JsonValue;
    } catch (cause) {
      throw Errors.storageCorrupt([file, `line ${index + 1} is not valid JSON`], { cause });
    }
  });
}

/** Keeps the newest `keep` complete lines of `file` (a torn last line is dropped), replacing it atomically. */
export async function trimJsonLines(file: string, keep: number, replace: (file: string, text: string) => Promise<void>): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  const lines = text.split('\n');
  lines.pop();
  if (lines.length <= keep) return;
  const kept = keep > 0 ? lines.slice(-keep) : [];
  await replace(file, kept.length > 0 ? `${kept.join('\n')}\n` : '');
}
