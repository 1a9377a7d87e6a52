// Maps storage keys and log names to file paths under a root (long names shortened with a hash), and scans a root back into keys.
import { createHash } from 'node:crypto';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { isTempFileName } from './atomic-write.js';
import { keySegments } from './storage-key.js';

/**
 * Encodes one key segment as a file or directory name: `encodeURIComponent`, then every character
 * outside `[a-z0-9_-]` as `%XX` too. Escaping `.` means a directory name never ends in `.json`, so keys
 * `a`, `a.json` and `a.json/b` never share a path, and no name starts with `.` (those are temp files).
 * Escaping upper case keeps keys that differ only in case apart on case-insensitive file systems.
 * An escaped name longer than 180 characters becomes its first 120 characters, `~` and 32 hex digits of the
 * segment's SHA-256; the segment itself is then kept in a sidecar file `<name>.name` (written before the name is used).
 */
export function encodeSegment(segment: string): string {
  const escaped = escapeSegment(segment);
  if (escaped.length <= MAX_ESCAPED_LENGTH) return escaped;
  // Too long for a file name (255 bytes, with the suffix and the temp-file decoration): keep a readable
  // prefix, cut before a partial %XX, and add a hash of the whole segment. `~` never occurs in escaped names.
  const prefix = escaped.slice(0, HASHED_PREFIX_LENGTH).replace(/%[0-9A-F]?$/, '');
  return `${prefix}~${createHash('sha256').update(segment, 'utf8').digest('hex').slice(0, 32)}`;
}

/** Escaped names longer than this are shortened with a hash (the file system allows 255 bytes per name). */
const MAX_ESCAPED_LENGTH = 180;
const HASHED_PREFIX_LENGTH = 120;
/** A shortened name: the original segment is kept in the sidecar file `<name>.name` beside it. */
const HASHED_NAME = /~[0-9a-f]{32}$/;
/** The suffix of the sidecar file that holds the segment of a shortened name. */
export const NAME_SIDECAR_SUFFIX = '.name';

function escapeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%[0-9A-F]{2}|[^a-z0-9_-]/g, (match) =>
    match.length === 3 ? match : `%${match.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
}

/** True when {@link encodeSegment} shortened the segment with a hash, so the name needs its sidecar file. */
export function isHashedName(name: string): boolean {
  return HASHED_NAME.test(name);
}

/**
 * The segment a file name encodes, or `undefined` if {@link encodeSegment} would not have produced it.
 * A shortened (hashed) name is decoded from its sidecar file in `dir`.
 */
export async function decodeSegment(name: string, dir: string): Promise<string | undefined> {
  let segment: string;
  try {
    segment = isHashedName(name) ? await readFile(path.join(dir, name + NAME_SIDECAR_SUFFIX), 'utf8') : decodeURIComponent(name);
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
        const segment = await decodeSegment(entry.name, dir);
        if (segment !== undefined) await visit(full, [...parents, segment]);
      } else if (entry.isFile() && isTempFileName(entry.name)) {
        await rm(full, { force: true });
      } else if (entry.isFile() && entry.name.endsWith(suffix)) {
        const segment = await decodeSegment(entry.name.slice(0, -suffix.length), dir);
        if (segment !== undefined) found.push({ key: [...parents, segment].join('/'), file: full });
      }
    }
  };
  await visit(root, []);
  return found;
}
