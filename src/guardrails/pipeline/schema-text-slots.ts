// Reads the text of a JSON Schema a client sends with a model request (tool parameters, a response format), bounded, as slots input checks read and rewrite.
import { Errors } from '../../errors/error-registry.js';
import { MAX_JSON_DEPTH } from '../../http/json-depth.js';
import { fixedSlot, type TextSlot } from './text-slot.js';

type Holder = Record<string | number, unknown>;
const isHolder = (value: unknown): value is Holder => value !== null && typeof value === 'object';

/** The most strings the tool definitions and response format of one request may hold while input checks run. */
export const MAX_DEFINITION_TEXTS = 10_000;

/** One slot for every place a definition holds the same text: a transform of it rewrites them all alike. */
class SharedSlot implements TextSlot {
  readonly definition = true;
  private readonly places: Array<[Holder, string | number]> = [];
  constructor(readonly text: string) {}
  add(holder: Holder, key: string | number): void {
    this.places.push([holder, key]);
  }
  replace(next: string): void {
    for (const [holder, key] of this.places) holder[key] = next;
  }
}

/**
 * The slots of one request's definitions, as they are read: one per distinct text (a schema repeats its parameter
 * names, enum values and descriptions; each check reads a text once, and a transform of it rewrites every place it
 * is), and one read-only slot per distinct name. Every string read counts against {@link MAX_DEFINITION_TEXTS}.
 */
export class DefinitionTexts {
  /** The slots, in the order their texts were first read. */
  readonly slots: TextSlot[] = [];
  private remaining = MAX_DEFINITION_TEXTS;
  private readonly texts = new Map<string, SharedSlot>();
  private readonly names = new Set<string>();

  private count(param: string): void {
    if (--this.remaining < 0) {
      throw Errors.validation([`The tool definitions and response format hold more than ${MAX_DEFINITION_TEXTS} strings, more than the input guardrail policy reads; send fewer or smaller definitions.`], { param });
    }
  }

  /** Reads the string at `holder[key]` as text a transform may rewrite. */
  text(holder: Holder, key: string | number, param: string): void {
    const text = holder[key] as string;
    if (text === '') return;
    this.count(param);
    let slot = this.texts.get(text);
    if (slot === undefined) {
      this.texts.set(text, (slot = new SharedSlot(text)));
      this.slots.push(slot);
    }
    slot.add(holder, key);
  }

  /** Reads `text` as a name: checked, never rewritten. */
  name(text: string, param: string): void {
    if (text === '') return;
    this.count(param);
    if (this.names.has(text)) return;
    this.names.add(text);
    this.slots.push(fixedSlot(text));
  }
}

/**
 * How the walk reads a JSON Schema keyword's value: `schema` (a string is text, an object or array holds schemas),
 * `structural` (types, references, regular expressions, formats: read, never rewritten), `data` (`enum`, `default`, …:
 * every string inside is text, every key a name), `named-schemas` (a map of parameter or definition names to schemas),
 * `names` (a list of parameter names, or a map of names to such lists).
 */
type Kind = 'schema' | 'structural' | 'data' | 'named-schemas' | 'names';

/** The keywords of JSON Schema by how their values are read: as keys they are structure, never text. One lookup a key. */
const KEYWORDS = new Map<string, Kind>([
  ...['type', '$ref', '$dynamicRef', '$id', '$anchor', '$dynamicAnchor', '$schema', 'format', 'pattern', 'contentMediaType', 'contentEncoding'].map((key) => [key, 'structural'] as [string, Kind]),
  ...['enum', 'const', 'default', 'examples', 'example'].map((key) => [key, 'data'] as [string, Kind]),
  ...['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'].map((key) => [key, 'named-schemas'] as [string, Kind]),
  ...['required', 'dependentRequired'].map((key) => [key, 'names'] as [string, Kind]),
  ...[
    'title', 'description', '$comment', 'items', 'prefixItems', 'additionalItems', 'additionalProperties', 'unevaluatedItems',
    'unevaluatedProperties', 'propertyNames', 'contains', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'minimum',
    'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems',
    'uniqueItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains', 'readOnly', 'writeOnly', 'deprecated',
    'nullable', 'strict',
  ].map((key) => [key, 'schema'] as [string, Kind]),
]);
/** The type names of JSON Schema: a `type` of these carries no text worth reading. */
const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);


/** One walk: where its texts go, and the field named when a bound is passed. */
interface Walk {
  texts: DefinitionTexts;
  param: string;
}

function tooDeep(walk: Walk, depth: number): void {
  if (depth > MAX_JSON_DEPTH) {
    throw Errors.validation([`The field '${walk.param}' nests deeper than ${MAX_JSON_DEPTH} levels, more than the input guardrail policy reads.`], { param: walk.param });
  }
}

/** Walks data (an enum, a default, an example): every string is text, every key a name. */
function walkData(value: unknown, depth: number, walk: Walk): void {
  if (!isHolder(value)) return;
  tooDeep(walk, depth);
  const isArray = Array.isArray(value);
  for (const key of Object.keys(value)) {
    if (!isArray) walk.texts.name(key, walk.param);
    const inner = value[key];
    if (typeof inner === 'string') walk.texts.text(value, key, walk.param);
    else walkData(inner, depth + 1, walk);
  }
}

/** Walks a schema, or a list or map of schemas under a keyword. */
function walkSchema(value: unknown, depth: number, walk: Walk): void {
  if (!isHolder(value)) return;
  tooDeep(walk, depth);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item === 'string') walk.texts.text(value, index, walk.param);
      else walkSchema(item, depth + 1, walk);
    }
    return;
  }
  for (const key of Object.keys(value)) {
    const inner = value[key];
    const kind = KEYWORDS.get(key);
    if (kind === undefined) walk.texts.name(key, walk.param);
    if (kind === 'structural') walkStructure(key, inner, depth + 1, walk);
    else if (typeof inner === 'string') walk.texts.text(value, key, walk.param);
    else if (kind === 'data') walkData(inner, depth + 1, walk);
    else if (kind === 'names') walkNames(inner, depth + 1, walk);
    else if (kind === 'named-schemas' && isHolder(inner) && !Array.isArray(inner)) {
      tooDeep(walk, depth + 1);
      for (const name of Object.keys(inner)) {
        walk.texts.name(name, walk.param);
        walkSchema(inner[name], depth + 2, walk);
      }
    } else walkSchema(inner, depth + 1, walk);
  }
}

/** Reads a structural keyword's value (`type: ["string", "null"]` included) as read-only text; JSON type names are skipped. */
function walkStructure(key: string, value: unknown, depth: number, walk: Walk): void {
  if (typeof value === 'string') {
    if (key !== 'type' || !TYPE_NAMES.has(value)) walk.texts.name(value, walk.param);
    return;
  }
  if (!Array.isArray(value)) return walkSchema(value, depth, walk);
  tooDeep(walk, depth);
  for (const item of value) walkStructure(key, item, depth + 1, walk);
}

/** Walks a list of names (`required`), or a map of names to lists of names (`dependentRequired`): all read-only. */
function walkNames(value: unknown, depth: number, walk: Walk): void {
  if (typeof value === 'string') walk.texts.name(value, walk.param);
  if (!isHolder(value)) return;
  tooDeep(walk, depth);
  const isArray = Array.isArray(value);
  for (const key of Object.keys(value)) {
    if (!isArray) walk.texts.name(key, walk.param);
    walkNames(value[key], depth + 1, walk);
  }
}

/**
 * Reads a JSON Schema into `texts`: titles, descriptions, comments, enum and const values, defaults and examples, and
 * any other string value, at any depth (nested properties, items, anyOf, definitions), as rewritable text; parameter
 * names, other keys that are no schema keyword, and structural values (`$ref`, `format`, `pattern`, a `type` other
 * than a JSON type name) as read-only names. Any value is walked without throwing but for the bounds: deeper than
 * {@link MAX_JSON_DEPTH} levels, or past the request's count of strings, is 400 naming `param`.
 * @example
 * const texts = new DefinitionTexts();
 * schemaSlots({ type: 'object', properties: { to: { description: 'Mail to a@b.c' } } }, 'tools[0].function.parameters', texts);
 * texts.slots; // → a read-only slot 'to', a text slot 'Mail to a@b.c'
 */
export function schemaSlots(schema: unknown, param: string, texts: DefinitionTexts): void {
  walkSchema(schema, 0, { texts, param });
}

/** Reads data (a custom tool's grammar, say) into `texts`: every string text, every key a name. */
export function dataSlots(value: unknown, param: string, texts: DefinitionTexts): void {
  walkData(value, 0, { texts, param });
}

/** Reads `holder[key]` into `texts` when it holds a string: as text, or as a read-only name when `fixed`. */
export function definitionSlot(holder: unknown, key: string, param: string, texts: DefinitionTexts, fixed = false): void {
  if (!isHolder(holder) || typeof holder[key] !== 'string') return;
  if (fixed) texts.name(holder[key] as string, param);
  else texts.text(holder, key, param);
}
