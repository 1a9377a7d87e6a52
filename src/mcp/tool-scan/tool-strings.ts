// Reads every string of a tool (name, description, and each string anywhere in the input schema) with its location.
import type { ScannableTool, ToolString, ToolStringKind } from './scan-types.js';

/** Bounds that keep a hostile schema from making the scan slow. */
const MAX_DEPTH = 32;
const MAX_STRINGS = 5000;
const MAX_STRING_LENGTH = 20_000;

/** JSON Schema keywords: as object keys they are structure, not text worth reading. */
const SCHEMA_KEYWORDS = new Set([
  '$schema', '$id', '$ref', '$defs', '$comment', 'definitions', 'type', 'properties', 'patternProperties', 'additionalProperties',
  'required', 'items', 'prefixItems', 'additionalItems', 'enum', 'const', 'default', 'examples', 'example', 'title', 'description',
  'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'format', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum',
  'exclusiveMaximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'uniqueItems', 'minProperties', 'maxProperties',
  'multipleOf', 'contains', 'dependentRequired', 'dependentSchemas', 'propertyNames', 'unevaluatedProperties',
  'unevaluatedItems', 'contentMediaType', 'contentEncoding', 'readOnly', 'writeOnly', 'deprecated', 'nullable',
]);

/** Invisible characters and Unicode tags, removed before the wording rules read a string (so they cannot split words). */
const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|[\u{E0000}-\u{E007F}]/gu;

/** What the wording rules read: NFKC (full-width and styled letters to plain), invisible characters out, lower case. */
export function foldText(text: string): string {
  return text.normalize('NFKC').replace(INVISIBLE, '').toLowerCase();
}

/** Appends `key` to a location path: `a.b` for plain keys, `a["odd key"]` otherwise. */
function child(path: string, key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

/** What a walk collected, and whether it had to stop early (a schema deeper or larger than the bounds). */
interface Walk {
  strings: ToolString[];
  truncated?: string;
}

function push(walk: Walk, kind: ToolStringKind, location: string, text: string): void {
  const into = walk.strings;
  if (text === '') return;
  if (into.length >= MAX_STRINGS) {
    walk.truncated ??= location;
    return;
  }
  const bounded = text.length > MAX_STRING_LENGTH ? text.slice(0, MAX_STRING_LENGTH) : text;
  into.push({ kind, location, text: bounded, folded: foldText(bounded) });
}

/** Walks a schema value: strings anywhere, parameter names under `properties`, and non-keyword object keys. */
function walk(value: unknown, path: string, depth: number, into: Walk): void {
  if (into.truncated) return;
  if (depth > MAX_DEPTH || into.strings.length >= MAX_STRINGS) {
    if (value !== null && (typeof value === 'object' || typeof value === 'string')) into.truncated = path;
    return;
  }
  if (typeof value === 'string') {
    push(into, 'text', path, value);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => walk(item, `${path}[${index}]`, depth + 1, into));
    return;
  }
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const location = child(path, key);
    if ((key === 'properties' || key === 'patternProperties') && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
      for (const [name, schema] of Object.entries(inner as Record<string, unknown>)) {
        push(into, 'parameter', child(location, name), name);
        walk(schema, child(location, name), depth + 1, into);
      }
      continue;
    }
    if (!SCHEMA_KEYWORDS.has(key)) push(into, 'key', location, key);
    walk(inner, location, depth + 1, into);
  }
}

/**
 * Every string of a tool, each with its location: the name, the description, and recursively every string in the
 * input schema (descriptions, titles, enums, defaults, examples, nested properties, items, anyOf…), plus parameter
 * names and any non-keyword object keys. `truncated` names the first location left unread when the schema is
 * deeper or larger than the bounds, so the scanner can say so instead of passing it silently.
 * @example
 * toolStrings({ name: 'read', inputSchema: { properties: { path: { description: 'File path' } } } }).strings
 * // → name 'read', parameter 'path' at inputSchema.properties.path, text 'File path' at inputSchema.properties.path.description
 */
export function toolStrings(tool: ScannableTool): Walk {
  const collected: Walk = { strings: [] };
  push(collected, 'name', 'name', String(tool.name ?? ''));
  if (typeof tool.description === 'string') push(collected, 'text', 'description', tool.description);
  walk(tool.inputSchema, 'inputSchema', 0, collected);
  return collected;
}
