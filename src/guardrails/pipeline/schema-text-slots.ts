// Reads the text of a JSON Schema a client sends with a model request (tool parameters, a response format), bounded, as slots input checks read and rewrite.
import { Errors } from '../../errors/error-registry.js';
import { MAX_JSON_DEPTH } from '../../http/json-depth.js';
import { fixedSlot, type TextSlot } from './text-slot.js';

/** The most text pieces the tool definitions and response format of one request may hold while input checks run. */
export const MAX_DEFINITION_TEXTS = 10_000;

/** What is left of a request's bound on definition text, shared by all its definitions. */
export interface DefinitionBudget {
  remaining: number;
}

/** A fresh budget of {@link MAX_DEFINITION_TEXTS}. */
export const definitionBudget = (): DefinitionBudget => ({ remaining: MAX_DEFINITION_TEXTS });

/** Keywords whose string values are structure (types, references, regular expressions, formats): read, never rewritten. */
const STRUCTURAL = new Set(['type', '$ref', '$dynamicRef', '$id', '$anchor', '$dynamicAnchor', '$schema', 'format', 'pattern', 'contentMediaType', 'contentEncoding']);
/** Keywords whose value is data, not a schema: every string inside is text, every key a name. */
const DATA = new Set(['enum', 'const', 'default', 'examples', 'example']);
/** Keywords whose value maps names (of parameters, definitions) to schemas. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
/** Keywords whose value lists parameter names, directly or per name. */
const NAME_LISTS = new Set(['required', 'dependentRequired']);
/** Every other keyword: as a key it is structure; its string value (a title, a description, a comment) is text. */
const KEYWORDS = new Set([
  'title', 'description', '$comment', 'items', 'prefixItems', 'additionalItems', 'additionalProperties', 'unevaluatedItems',
  'unevaluatedProperties', 'propertyNames', 'contains', 'anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else', 'minimum',
  'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems',
  'uniqueItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains', 'readOnly', 'writeOnly', 'deprecated',
  'nullable', 'strict', ...STRUCTURAL, ...DATA, ...NAMED_SCHEMAS, ...NAME_LISTS,
]);
/** The type names of JSON Schema: a `type` of these carries no text worth reading. */
const TYPE_NAMES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

type Holder = Record<string, unknown>;
const isHolder = (value: unknown): value is Holder => value !== null && typeof value === 'object';

/** One walk: where its slots go, the request's budget, and the field named when a bound is passed. */
interface Walk {
  into: TextSlot[];
  budget: DefinitionBudget;
  param: string;
}

function take(walk: Walk, slot: TextSlot): void {
  if (slot.text === '') return;
  if (--walk.budget.remaining < 0) {
    throw Errors.validation([`The tool definitions and response format hold more than ${MAX_DEFINITION_TEXTS} texts, more than the input guardrail policy reads; send fewer or smaller definitions.`], { param: walk.param });
  }
  walk.into.push(slot);
}

function tooDeep(walk: Walk, depth: number): void {
  if (depth > MAX_JSON_DEPTH) {
    throw Errors.validation([`The field '${walk.param}' nests deeper than ${MAX_JSON_DEPTH} levels, more than the input guardrail policy reads.`], { param: walk.param });
  }
}

/** A rewritable slot for the string at `holder[key]`. */
export function textSlot(holder: Holder, key: string | number): TextSlot {
  return { text: holder[key] as string, replace: (next) => void (holder[key] = next) };
}

/** Walks data (an enum, a default, an example): every string is text, every key a name. */
function walkData(value: unknown, depth: number, walk: Walk): void {
  if (!isHolder(value)) return;
  tooDeep(walk, depth);
  const isArray = Array.isArray(value);
  for (const key of Object.keys(value)) {
    if (!isArray) take(walk, fixedSlot(key));
    const inner = value[key];
    if (typeof inner === 'string') take(walk, textSlot(value, key));
    else walkData(inner, depth + 1, walk);
  }
}

/** Walks a schema, or a list or map of schemas under a keyword. */
function walkSchema(value: unknown, depth: number, walk: Walk): void {
  if (!isHolder(value)) return;
  tooDeep(walk, depth);
  if (Array.isArray(value)) {
    value.forEach((item, index) => (typeof item === 'string' ? take(walk, textSlot(value, index)) : walkSchema(item, depth + 1, walk)));
    return;
  }
  for (const key of Object.keys(value)) {
    const inner = value[key];
    if (!KEYWORDS.has(key)) take(walk, fixedSlot(key));
    if (STRUCTURAL.has(key)) walkStructure(key, inner, depth + 1, walk);
    else if (typeof inner === 'string') take(walk, textSlot(value, key));
    else if (DATA.has(key)) walkData(inner, depth + 1, walk);
    else if (NAME_LISTS.has(key)) walkNames(inner, depth + 1, walk);
    else if (NAMED_SCHEMAS.has(key) && isHolder(inner) && !Array.isArray(inner)) {
      tooDeep(walk, depth + 1);
      for (const name of Object.keys(inner)) {
        take(walk, fixedSlot(name));
        walkSchema(inner[name], depth + 2, walk);
      }
    } else walkSchema(inner, depth + 1, walk);
  }
}

/** Reads a structural keyword's value (`type: ["string", "null"]` included) as read-only text; JSON type names are skipped. */
function walkStructure(key: string, value: unknown, depth: number, walk: Walk): void {
  if (typeof value === 'string') {
    if (key !== 'type' || !TYPE_NAMES.has(value)) take(walk, fixedSlot(value));
    return;
  }
  if (!Array.isArray(value)) return walkSchema(value, depth, walk);
  tooDeep(walk, depth);
  for (const item of value) walkStructure(key, item, depth + 1, walk);
}

/** Walks a list of names (`required`), or a map of names to lists of names (`dependentRequired`): all read-only. */
function walkNames(value: unknown, depth: number, walk: Walk): void {
  if (typeof value === 'string') take(walk, fixedSlot(value));
  if (!isHolder(value)) return;
  tooDeep(walk, depth);
  const isArray = Array.isArray(value);
  for (const key of Object.keys(value)) {
    if (!isArray) take(walk, fixedSlot(key));
    walkNames(value[key], depth + 1, walk);
  }
}

/**
 * Appends the slots of a JSON Schema to `into`: titles, descriptions, comments, enum and const values, defaults and
 * examples, and any other string value, at any depth (nested properties, items, anyOf, definitions), as rewritable text;
 * parameter names, other keys that are no schema keyword, and structural values (`$ref`, `format`, `pattern`, a `type`
 * other than a JSON type name) as read-only slots. Any value is walked without throwing but for the bounds: deeper
 * than {@link MAX_JSON_DEPTH} levels, or more than the request's budget of texts, is 400 naming `param`.
 * @example
 * schemaSlots({ type: 'object', properties: { to: { description: 'Mail to a@b.c' } } }, 'tools[0].function.parameters', [], definitionBudget());
 * // → a read-only slot 'to', a text slot 'Mail to a@b.c'
 */
export function schemaSlots(schema: unknown, param: string, into: TextSlot[], budget: DefinitionBudget): void {
  walkSchema(schema, 0, { into, budget, param });
}

/** Appends the slots of data (a custom tool's grammar, say): every string text, every key read-only. */
export function dataSlots(value: unknown, param: string, into: TextSlot[], budget: DefinitionBudget): void {
  walkData(value, 0, { into, budget, param });
}

/** Appends a slot for `holder[key]` when it holds a string: rewritable, or read-only when `fixed`. */
export function definitionSlot(holder: unknown, key: string, param: string, into: TextSlot[], budget: DefinitionBudget, fixed = false): void {
  if (!isHolder(holder) || typeof holder[key] !== 'string') return;
  take({ into, budget, param }, fixed ? fixedSlot(holder[key] as string) : textSlot(holder, key));
}
