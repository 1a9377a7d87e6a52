// The text a tool server hands a client (and its model or user), in answers and in its own requests: every place registry policies must read and may rewrite.
import type { TextSlot } from '../guardrails/pipeline/message-text.js';

/** The JSON-RPC methods whose results carry content from the tool server: tool results, resources and prompts. */
export const CONTENT_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

type Holder = Record<string, unknown>;

const isHolder = (value: unknown): value is Holder => value !== null && typeof value === 'object';

/** A slot for `holder[key]` when it is a string. */
function slotAt(holder: Holder, key: string | number, into: TextSlot[]): void {
  const text = holder[key];
  if (typeof text === 'string') into.push({ text, replace: (next) => void (holder[key] = next) });
}

/** Every string inside a JSON value (structured content), depth first; the answer was already bounded in size and depth. */
function everyString(value: unknown, into: TextSlot[]): void {
  if (!isHolder(value)) return;
  for (const key of Object.keys(value)) {
    if (typeof value[key] === 'string') slotAt(value, key, into);
    else everyString(value[key], into);
  }
}

/**
 * The text of one content block: a text part, an embedded resource's text, or a resource link's title and description
 * (MCP calls the description a hint to the model); blobs, images and audio are not text.
 */
function contentSlots(part: unknown, into: TextSlot[]): void {
  if (!isHolder(part)) return;
  if (part.type === 'text') slotAt(part, 'text', into);
  else if (part.type === 'resource' && isHolder(part.resource)) slotAt(part.resource, 'text', into);
  else if (part.type === 'resource_link') {
    slotAt(part, 'title', into);
    slotAt(part, 'description', into);
  }
}

/**
 * The text slots of a result of a {@link CONTENT_METHODS} method, which a DLP transform rewrites in place:
 * - `tools/call`: text parts, embedded resources and resource links of `content`, and every string of `structuredContent`;
 * - `resources/read`: the `text` of each of `contents`;
 * - `prompts/get`: `description`, and the text parts and embedded resources of each message.
 * @example
 * resultSlots('tools/call', { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 'b' } }).map((s) => s.text); // ['hi', 'b']
 */
export function resultSlots(method: string, result: Holder): TextSlot[] {
  const slots: TextSlot[] = [];
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  if (method === 'tools/call') {
    for (const part of list(result.content)) contentSlots(part, slots);
    everyString(result.structuredContent, slots);
  } else if (method === 'resources/read') {
    for (const entry of list(result.contents)) if (isHolder(entry)) slotAt(entry, 'text', slots);
  } else if (method === 'prompts/get') {
    slotAt(result, 'description', slots);
    for (const message of list(result.messages)) {
      if (!isHolder(message)) continue;
      for (const part of Array.isArray(message.content) ? message.content : [message.content]) contentSlots(part, slots);
    }
  }
  return slots;
}


/** The requests a tool server sends the client whose params carry its text to the client's model or user. */
export const SERVER_REQUEST_METHODS: ReadonlySet<string> = new Set(['sampling/createMessage', 'elicitation/create']);

/** The text of one sampling content block: a text part, a tool result's content and structured content, a tool use's input. */
function samplingSlots(part: unknown, into: TextSlot[]): void {
  if (!isHolder(part)) return;
  if (part.type === 'tool_result') {
    for (const inner of Array.isArray(part.content) ? part.content : []) contentSlots(inner, into);
    everyString(part.structuredContent, into);
  } else if (part.type === 'tool_use') everyString(part.input, into);
  else contentSlots(part, into);
}

/**
 * The text slots of a {@link SERVER_REQUEST_METHODS} request's params, rewritten in place by a DLP transform:
 * - `sampling/createMessage`: `systemPrompt`, the text of each message (one block or a list: text, tool results,
 *   tool uses' input) and the descriptions of the tools offered to the client's model;
 * - `elicitation/create`: `message`, a URL-mode elicitation's `url`, and every string of the form's `requestedSchema`
 *   (titles, descriptions, choices).
 * @example
 * requestSlots('elicitation/create', { message: 'Ship it?', requestedSchema: { type: 'object', properties: {} } }).map((s) => s.text); // ['Ship it?', 'object']
 */
export function requestSlots(method: string, params: Holder): TextSlot[] {
  const slots: TextSlot[] = [];
  if (method === 'sampling/createMessage') {
    slotAt(params, 'systemPrompt', slots);
    for (const message of Array.isArray(params.messages) ? params.messages : []) {
      if (!isHolder(message)) continue;
      for (const part of Array.isArray(message.content) ? message.content : [message.content]) samplingSlots(part, slots);
    }
    for (const tool of Array.isArray(params.tools) ? params.tools : []) if (isHolder(tool)) slotAt(tool, 'description', slots);
  } else if (method === 'elicitation/create') {
    slotAt(params, 'message', slots);
    // A URL-mode elicitation asks the user to open the tool server's URL: it is text the user reads too.
    slotAt(params, 'url', slots);
    everyString(params.requestedSchema, slots);
  }
  return slots;
}

/**
 * The text slots of a tool server's JSON-RPC error (to a tool call, resource read or prompt get): its `message`, and
 * every string of its `data`. A client hands the error on as the call's outcome, so it is read as a result is.
 * @example
 * errorSlots({ code: -32000, message: 'No such order', data: { hint: 'try 1182' } }).map((s) => s.text); // ['No such order', 'try 1182']
 */
export function errorSlots(error: Holder): TextSlot[] {
  const slots: TextSlot[] = [];
  slotAt(error, 'message', slots);
  if (typeof error.data === 'string') slotAt(error, 'data', slots);
  else everyString(error.data, slots);
  return slots;
}

/** The notifications a tool server sends the client that carry its own text: log messages and progress messages. */
export const SERVER_NOTIFICATION_METHODS: ReadonlySet<string> = new Set(['notifications/message', 'notifications/progress']);

/**
 * The text slots of a {@link SERVER_NOTIFICATION_METHODS} notification's params, rewritten in place by a DLP transform:
 * - `notifications/message`: every string of `data` (a text or any JSON value) and the `logger` name;
 * - `notifications/progress`: `message`.
 * @example
 * notificationSlots('notifications/progress', { progressToken: 1, progress: 1, message: 'Half way' }).map((s) => s.text); // ['Half way']
 */
export function notificationSlots(method: string, params: Holder): TextSlot[] {
  const slots: TextSlot[] = [];
  if (method === 'notifications/message') {
    slotAt(params, 'logger', slots);
    if (typeof params.data === 'string') slotAt(params, 'data', slots);
    else everyString(params.data, slots);
  } else if (method === 'notifications/progress') slotAt(params, 'message', slots);
  return slots;
}

/**
 * The method a result answers, read from its shape, for an answer that matches no request of its exchange (a replay
 * on a resumed stream, a repeated id): `tools/list`, a content method, or undefined when it lists no tools and carries
 * no content.
 * @example
 * methodOfResult({ content: [] }); // 'tools/call'
 */
export function methodOfResult(result: Holder): string | undefined {
  if (Array.isArray(result.tools)) return 'tools/list';
  if (Array.isArray(result.content) || result.structuredContent !== undefined) return 'tools/call';
  if (Array.isArray(result.contents)) return 'resources/read';
  if (Array.isArray(result.messages)) return 'prompts/get';
  return undefined;
}
