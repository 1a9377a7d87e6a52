// The text of the tool and function definitions and the response format a client sends with a chat request: what the model reads besides the messages.
import { dataSlots, DefinitionTexts, definitionSlot, schemaSlots } from './schema-text-slots.js';
import type { TextSlot } from './text-slot.js';

type Holder = Record<string, unknown>;
const isHolder = (value: unknown): value is Holder => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Reads a named definition into `texts`: its name read-only, its description as text, and its schema under `schemaKey`. */
function namedSchemaSlots(holder: unknown, schemaKey: string, at: string, texts: DefinitionTexts): void {
  if (!isHolder(holder)) return;
  definitionSlot(holder, 'name', `${at}.name`, texts, true);
  definitionSlot(holder, 'description', `${at}.description`, texts);
  // A schema sent as a string is not valid, but a provider that passes it on would have its model read it.
  definitionSlot(holder, schemaKey, `${at}.${schemaKey}`, texts);
  schemaSlots(holder[schemaKey], `${at}.${schemaKey}`, texts);
}

/**
 * Reads one function definition (a chat tool's `function`, a legacy `functions` item, a Responses function tool) into
 * `texts`: its name read-only, its description as text, and its `parameters` schema (see {@link schemaSlots}).
 * `at` is the definition's field path, named by a 400 when the schema passes the bounds.
 */
export function functionSlots(definition: unknown, at: string, texts: DefinitionTexts): void {
  namedSchemaSlots(definition, 'parameters', at, texts);
}

/**
 * Reads a JSON schema output format (chat's `response_format.json_schema`, a Responses `text.format`) into `texts`:
 * its name read-only, its description as text, and its `schema`.
 */
export function outputFormatSlots(format: unknown, at: string, texts: DefinitionTexts): void {
  namedSchemaSlots(format, 'schema', at, texts);
}

/**
 * The slots of a chat body's definitions, in the order first read: each of `tools` (a function tool's `function`; a
 * custom tool's name, description and `format`), each of the legacy `functions`, and `response_format.json_schema`,
 * one slot per distinct text (see {@link DefinitionTexts}). Any shape is read without throwing, but for the bounds of
 * {@link schemaSlots} (400 naming the field).
 * @example
 * chatDefinitionSlots({ tools: [{ type: 'function', function: { name: 'f', description: 'Finds' } }] }).map((s) => s.text); // ['f', 'Finds']
 */
export function chatDefinitionSlots(body: Holder): TextSlot[] {
  const texts = new DefinitionTexts();
  if (Array.isArray(body.tools)) {
    body.tools.forEach((tool: unknown, index) => {
      if (!isHolder(tool)) return;
      if (tool.function !== undefined) functionSlots(tool.function, `tools[${index}].function`, texts);
      if (isHolder(tool.custom)) {
        const at = `tools[${index}].custom`;
        definitionSlot(tool.custom, 'name', `${at}.name`, texts, true);
        definitionSlot(tool.custom, 'description', `${at}.description`, texts);
        dataSlots(tool.custom.format, `${at}.format`, texts);
      }
    });
  }
  if (Array.isArray(body.functions)) body.functions.forEach((definition: unknown, index) => functionSlots(definition, `functions[${index}]`, texts));
  // Read whatever `type` says: a provider that takes the schema reads it.
  if (isHolder(body.response_format)) outputFormatSlots(body.response_format.json_schema, 'response_format.json_schema', texts);
  return texts.slots;
}
