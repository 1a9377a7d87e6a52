// JSONL log files: durable appends that first cut away a torn last line, reads (whole or newest first, page by page) that skip one, and streamed trims.
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { Errors } from '../errors/error-registry.js';
import { FILE_MODE } from './atomic-write.js';
import type { JsonValue, LogPage, LogRecord } from './storage-adapter.js';

const NEWLINE = 0x0a;
const CHUNK = 64 * 1024;

/**
 * Serializes records as JSONL. The newline ends (commits) each line: a last line without one was torn
 * by a crash during an append that never resolved, so readers skip it and the next append removes it.
 */
export function toJsonLines(records: JsonValue[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/** Opens `file`, or resolves `undefined` when it does not exist. */
async function openIfExists(file: string, flags: string): Promise<FileHandle | undefined> {
  try {
    return await open(file, flags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The offset just after the last newline of the first `size` bytes (0 if none): where the committed lines end. */
async function committedEnd(handle: FileHandle, size: number): Promise<number> {
  const chunk = Buffer.alloc(CHUNK);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, end - start, start);
    const index = chunk.subarray(0, bytesRead).lastIndexOf(NEWLINE);
    if (index !== -1) return start + index + 1;
    end = start;
  }
  return 0;
}

/**
 * The complete lines that end at or before `end` (a line boundary), newest first, each with the offset just after
 * its newline. Reads backwards in 64 KB chunks, so memory holds one chunk and the line being assembled.
 */
async function* linesBackward(handle: FileHandle, end: number): AsyncGenerator<{ bytes: Buffer; end: number }> {
  let lineEnd = end;
  let parts: Buffer[] = [];
  let pos = end > 0 ? end - 1 : 0; // byte end-1 is the newline of the newest line
  while (pos > 0) {
    const start = Math.max(0, pos - CHUNK);
    const chunk = Buffer.alloc(pos - start);
    await handle.read(chunk, 0, chunk.length, start);
    let index = chunk.length;
    for (;;) {
      const newline = index > 0 ? chunk.lastIndexOf(NEWLINE, index - 1) : -1;
      if (newline === -1) break;
      parts.unshift(chunk.subarray(newline + 1, index));
      yield { bytes: parts.length === 1 ? parts[0]! : Buffer.concat(parts), end: lineEnd };
      parts = [];
      lineEnd = start + newline + 1;
      index = newline;
    }
    parts.unshift(chunk.subarray(0, index));
    pos = start;
  }
  if (lineEnd > 0) yield { bytes: Buffer.concat(parts), end: lineEnd };
}

function parseLine(bytes: Buffer, file: string, where: string): JsonValue {
  try {
    return JSON.parse(bytes.toString('utf8')) as JsonValue;
  } catch (cause) {
    throw Errors.storageCorrupt([file, `${where} is not valid JSON`], { cause });
  }
}

/**
 * Reads up to `limit` records of `file` newest first, from the record ending at byte offset `from` (default: the
 * newest complete line). A record's position is the offset just after its newline. Resolves `undefined` when
 * `from` is not such an offset. A missing file is empty.
 */
export async function readJsonLinesBackward(file: string, from: number | undefined, limit: number): Promise<LogPage | undefined> {
  const handle = await openIfExists(file, 'r');
  if (!handle) return from === undefined ? { records: [] } : undefined;
  try {
    const { size } = await handle.stat();
    let end: number;
    if (from === undefined) end = await committedEnd(handle, size);
    else {
      if (!Number.isInteger(from) || from <= 0 || from > size) return undefined;
      const last = Buffer.alloc(1);
      await handle.read(last, 0, 1, from - 1);
      if (last[0] !== NEWLINE) return undefined;
      end = from;
    }
    const records: LogRecord[] = [];
    for await (const line of linesBackward(handle, end)) {
      if (records.length === limit) return { records, next: line.end };
      records.push({ position: line.end, value: parseLine(line.bytes, file, `the line ending at byte ${line.end}`) });
    }
    return { records };
  } finally {
    await handle.close();
  }
}

/**
 * Truncates a torn (unterminated) last line off `file`, if there is one. A missing file is fine.
 */
export async function cutTornTail(file: string): Promise<void> {
  const handle = await openIfExists(file, 'r+');
  if (!handle) return;
  try {
    const { size } = await handle.stat();
    const keep = await committedEnd(handle, size);
    if (keep < size) {
      await handle.truncate(keep);
      await handle.sync();
    }
  } finally {
    await handle.close();
  }
}

/** Appends `text` (whole JSONL lines) to `file`, creating it with mode 0600, and resolves once the data is on disk. */
export async function appendDurable(file: string, text: string): Promise<void> {
  const handle = await open(file, 'a', FILE_MODE);
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
  return lines.map((line, index) => parseLine(Buffer.from(line), file, `line ${index + 1}`));
}

/**
 * The offset where the newest `keep` complete lines before `end` (a line boundary) begin: just after the newline
 * that ends the line before them, or 0 when there are no more than `keep` lines. Counts newlines chunk by chunk,
 * backwards, without building the lines.
 */
async function startOfNewestLines(handle: FileHandle, end: number, keep: number): Promise<number> {
  if (end === 0) return 0;
  if (keep === 0) return end;
  const chunk = Buffer.alloc(CHUNK);
  let seen = 0;
  // Byte end-1 is the newline of the newest line: the newlines before it each end an older line.
  for (let pos = end - 1; pos > 0; ) {
    const start = Math.max(0, pos - CHUNK);
    const { bytesRead } = await handle.read(chunk, 0, pos - start, start);
    for (let index = bytesRead; index > 0; ) {
      const newline = chunk.lastIndexOf(NEWLINE, index - 1);
      if (newline === -1 || newline >= bytesRead) break;
      if (++seen === keep) return start + newline + 1;
      index = newline;
    }
    pos = start;
  }
  return 0;
}

/**
 * Keeps the newest `keep` complete lines of `file` (a torn last line is dropped), replacing it atomically.
 * Only the kept tail is read, in chunks, and copied to the replacement: memory does not grow with the file.
 */
export async function trimJsonLines(
  file: string,
  keep: number,
  replace: (file: string, write: (target: FileHandle) => Promise<void>) => Promise<void>,
): Promise<void> {
  const handle = await openIfExists(file, 'r');
  if (!handle) return;
  try {
    const { size } = await handle.stat();
    const end = await committedEnd(handle, size);
    const start = await startOfNewestLines(handle, end, keep);
    if (start === 0 && end === size) return;
    await replace(file, async (target) => {
      const chunk = Buffer.alloc(CHUNK);
      for (let offset = start; offset < end; ) {
        const { bytesRead } = await handle.read(chunk, 0, Math.min(CHUNK, end - offset), offset);
        if (bytesRead === 0) break;
        await target.write(chunk, 0, bytesRead);
        offset += bytesRead;
      }
    });
  } finally {
    await handle.close();
  }
}
