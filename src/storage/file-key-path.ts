// Maps storage keys and log names to file paths under a root, and scans a root back into keys.
import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { isTempFileName } from './atomic-write.js';
import { keySegments } from './storage-key.js';

/**
 * Encodes one key segment as a file or directory name: `encodeURIComponent`, then every character
 * outside `[a-z0-9_-]` as `%XX` too. Escaping `.` means a directory name never ends in `.json`, so keys
 * `a`, `a.json` and `a.json/b` never share a path, and no name starts with `.` (those are temp files).
 * Escaping upper case keeps keys that differ only in case apart on case-insensitive file systems.
 */
export function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%[0-9A-F]{2}|[^a-z0-9_-]/g, (match) =>
    match.length === 3 ? match : `%${match.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** The segment a file name encodes, or `undefined` if {@link encodeSegment} would not have produced it. */
export function decodeSegment(name: string): string | undefined {
  let segment: string;
  try {
    segment = decodeURIComponent(name);
    if (keySegments(segment).length !== 1) return undefined;
  } catch {
    return undefined;
  }
  return encodeSegment(segment) === name ? segment : undefined;
}

/** The file of an already validated key: segments as directories, `suffix` on the last one. */
export function keyFilePath(root: string, segments: string[], suffix: string): string {
  const names = segments.map(encodeSegment);
  names[names.length - 1] += suffix;
  return path.join(root, ...names);
}

/** One file found by {@link scanKeyFiles}. */
export interface KeyFile {
  key: string;
  file: string;
}

/**
 * Lists every file under `root` named `<encoded segment><suffix>` with its key, and removes temp files
 * left by a crash. Names the encoding cannot produce (and symbolic links) are ignored, never followed.
 */
export async function scanKeyFiles(root: string, suffix: string): Promise<KeyFile[]> {
  const found: KeyFile[] = [];
  const visit = async (dir: string, parents: string[]): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const segment = decodeSegment(entry.name);
        if (segment !== undefined) await visit(full, [...parents, segment]);
      } else if (entry.isFile() && isTempFileName(entry.name)) {
        await rm(full, { force: true });
      } else if (entry.isFile() && entry.name.endsWith(suffix)) {
        const segment = decodeSegment(entry.name.slice(0, -suffix.length));
        if (segment !== undefined) found.push({ key: [...parents, segment].join('/'), file: full });
      }
    }
  };
  await visit(root, []);
  return found;
}
