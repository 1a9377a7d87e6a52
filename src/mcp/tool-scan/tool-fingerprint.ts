// The fingerprint of a tool: SHA-256 of a canonical JSON of its name, description and input schema (rug-pull pinning).
import { createHash } from 'node:crypto';
import type { ScannableTool } from './scan-types.js';

/** JSON with object keys sorted at every depth and `undefined` members left out, so key order never changes it. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, inner]) => inner !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
}

/**
 * SHA-256 (hex) of the canonical JSON of `{ name, description, inputSchema }`. Stable under key reordering; any
 * change to the name, the description or the schema changes it. Annotations are left out: they are hints that
 * servers may adjust without changing what the tool does.
 * @example
 * toolFingerprint({ name: 'add', description: 'Adds two numbers' }) // → '3f1c…' (64 hex characters)
 */
export function toolFingerprint(tool: ScannableTool): string {
  const canonical = canonicalJson({ name: tool.name, description: tool.description ?? null, inputSchema: tool.inputSchema ?? null });
  return createHash('sha256').update(canonical).digest('hex');
}
