// Reads and rewrites the text of model requests and answers in OpenAI's format, for guardrail checks and DLP transforms.
import { Errors } from '../../errors/error-registry.js';
import type { ModelEndpoint } from '../../plugins/plugin-types.js';
import type { TextSlot } from './text-slot.js';
import { chatDefinitionSlots } from './tool-definition-slots.js';
import { pdfReadingOf } from '../pdf/pdf-file-texts.js';

export type { TextSlot } from './text-slot.js';

/**
 * The roles of instructions and conversation turns. A message of any other role is checked as a tool result: the
 * Anthropic and Gemini adapters send it as one (a `tool_result` block, a `functionResponse`), and OpenAI-compatible
 * servers pass custom roles (`ipython`, `observation`, `USER`) to their chat templates. Every role is checked: a
 * developer key writes the system and developer messages too, so they are untrusted input.
 */
const TURN_ROLES = new Set(['system', 'developer', 'user', 'assistant']);

/**
 * The head of a `data:` URL that holds a text file in base64: a `text/*` media type (plain, markdown, CSV, HTML…) or
 * one of the `application/*` types that are text (JSON, XML, YAML, scripts), parameters such as `charset` allowed.
 */
const TEXT_DATA_URL = /^data:(?:text\/[\w.+-]+|application\/(?:json|xml|yaml|x-yaml|javascript|x-javascript|x-python|x-sh|[\w.-]+\+(?:json|xml)))(?:;[\w.+-]+=[\w.+-]+)*;base64,/i;

/** True for a file's `file_data` that is a text file inline (a base64 `data:` URL of a text type), which the checks read. */
export function isTextFileData(data: unknown): boolean {
  return typeof data === 'string' && TEXT_DATA_URL.test(data);
}

/**
 * The slots of a `file` part: its `filename` (a document's title, which the model reads), and its content when it is
 * a text file inline (`file.file_data`, a `data:text/…;base64,` URL, as /v1/messages translates a plain-text document):
 * the model reads that text as much as a text part's, so it is checked and rewritten (re-encoded) like one. A PDF's
 * text, when the policy had it read (`read_pdf_text`), is checked but never rewritten. Other binary files' bytes are
 * not read, as an image's are not.
 */
function fileSlots(part: Record<string, unknown>, into: TextSlot[]): void {
  const file = part.file;
  if (part.type !== 'file' || file === null || typeof file !== 'object') return;
  const record = file as Record<string, unknown>;
  stringSlot(record, 'filename', into);
  const data = record.file_data;
  const pdf = pdfReadingOf(record);
  if (pdf?.text !== undefined) {
    // A PDF's text, read by readPdfFiles: checked, never rewritten (a transform that would change it refuses the request).
    const text = pdf.text;
    into.push({ text, replace: (next) => void (pdf.rewritten ||= next !== text) });
    return;
  }
  const prefix = typeof data === 'string' ? TEXT_DATA_URL.exec(data) : null;
  if (!prefix) return;
  const head = prefix[0];
  const text = Buffer.from((data as string).slice(head.length), 'base64').toString('utf8');
  into.push({ text, replace: (next) => (record.file_data = `${head}${Buffer.from(next, 'utf8').toString('base64')}`) });
}

/** Text slots of a content value: a string, or an array of parts with `type: "text"` (and files, see {@link fileSlots}). */
function contentSlots(holder: Record<string, unknown>, key: string): TextSlot[] {
  const content = holder[key];
  if (typeof content === 'string') return [{ text: content, replace: (next) => (holder[key] = next) }];
  if (!Array.isArray(content)) return [];
  const slots: TextSlot[] = [];
  for (const part of content) {
    if (!part || typeof part !== 'object') continue;
    const record = part as Record<string, unknown>;
    if (typeof record.text === 'string') slots.push({ text: record.text, replace: (next) => (record.text = next) });
    else fileSlots(record, slots);
  }
  return slots;
}

/** A slot for `holder[key]` when it holds a string. */
function stringSlot(holder: unknown, key: string, into: TextSlot[]): void {
  if (holder === null || typeof holder !== 'object') return;
  const record = holder as Record<string, unknown>;
  if (typeof record[key] === 'string') into.push({ text: record[key] as string, replace: (next) => (record[key] = next) });
}

/**
 * The text of a request message the model reads beyond its text parts: refusal parts of an assistant's content, and the
 * arguments of its tool calls (and of a legacy `function_call`), which a developer key writes as freely as the rest.
 */
function otherMessageSlots(message: Record<string, unknown>): TextSlot[] {
  const slots: TextSlot[] = [];
  if (Array.isArray(message.content)) for (const part of message.content) if ((part as { type?: unknown })?.type === 'refusal') stringSlot(part, 'refusal', slots);
  if (Array.isArray(message.tool_calls)) for (const call of message.tool_calls) stringSlot((call as { function?: unknown })?.function, 'arguments', slots);
  stringSlot(message.function_call, 'arguments', slots);
  return slots;
}

/** A chat body's `prediction` (OpenAI's predicted output: `{type: "content", content}`), or an empty holder. */
function predictionOf(body: Record<string, unknown>): Record<string, unknown> {
  const prediction = body.prediction;
  return prediction !== null && typeof prediction === 'object' && !Array.isArray(prediction) ? (prediction as Record<string, unknown>) : {};
}

/**
 * The checkable text of a request body (a completion's `suffix` included), which the body's slots rewrite in place.
 * Throws 400 for a `prompt` or `input` of token ids: text a policy cannot read is refused rather than passed unchecked (this runs only when input checks do). System and developer
 * messages are checked and transformed like the others: whoever holds the key writes them, and so is a message of
 * any role (in any letter case), as a tool result when the role is none of the turn roles. So are tool call arguments
 * and refusal parts, a chat body's predicted output, and its tool and function definitions and response format
 * schema (see {@link chatDefinitionSlots}; a definition past its bounds is 400 too).
 */
export function requestSlots(endpoint: ModelEndpoint, body: Record<string, unknown>): TextSlot[] {
  if (endpoint === 'chat') {
    const messages = Array.isArray(body.messages) ? (body.messages as Array<Record<string, unknown>>) : [];
    const slots = messages
      .filter((m) => m !== null && typeof m === 'object')
      .flatMap((message) => {
        const slots = contentSlots(message, 'content');
        // What a tool returned, carried back to the model: the text processors built for tool results read.
        if (!TURN_ROLES.has(message.role as string)) for (const slot of slots) slot.toolResult = true;
        return [...slots, ...otherMessageSlots(message)];
      });
    // The model reads the tool and function definitions and the response format's schema as much as the messages, and
    // a predicted output (`prediction.content`) is sent to the provider with them.
    return [...slots, ...contentSlots(predictionOf(body), 'content'), ...chatDefinitionSlots(body)];
  }
  const key = endpoint === 'completions' || endpoint === 'images' || endpoint === 'transcriptions' ? 'prompt' : 'input';
  // Text the model reads besides the prompt: a completion's `suffix` (after the gap it fills), and the `instructions`
  // a speech model (gpt-4o-mini-tts) follows for its voice, written by the key holder as freely as the input.
  const other: TextSlot[] = [];
  if (endpoint === 'completions') stringSlot(body, 'suffix', other);
  if (endpoint === 'speech') stringSlot(body, 'instructions', other);
  return [...promptSlots(body, key), ...other];
}

/**
 * The slots of a `prompt` or `input`: a string, or an array of strings (token ids refused) or of parts with a string
 * `text` (a multimodal moderations input, `[{type: "text", text}, {type: "image_url", …}]`; an image is not read).
 */
function promptSlots(body: Record<string, unknown>, key: string): TextSlot[] {
  const value = body[key];
  if (typeof value === 'string') return [{ text: value, replace: (next) => (body[key] = next) }];
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => {
      if (typeof item === 'string') return [{ text: item, replace: (next: string) => ((value as unknown[])[index] = next) }];
      // Token ids (a prompt or input of numbers, or of arrays of numbers) reach the model as text no check can read.
      if (typeof item === 'number' || Array.isArray(item)) throw Errors.validation([`The field '${key}' holds token ids, which the input guardrail policy cannot check; send text.`], { param: key });
      const slots: TextSlot[] = [];
      stringSlot(item, 'text', slots);
      return slots;
    });
  }
  return [];
}

/** The text slots of a JSON answer: each choice's message content, or completion text. */
export function answerSlots(answer: Record<string, unknown>): TextSlot[] {
  const choices = Array.isArray(answer.choices) ? (answer.choices as Array<Record<string, unknown>>) : [];
  return choices.flatMap((choice) => {
    if (choice.message && typeof choice.message === 'object') return contentSlots(choice.message as Record<string, unknown>, 'content');
    return typeof choice.text === 'string' ? contentSlots(choice, 'text') : [];
  });
}

/** The members of an answer's message (or a chunk's delta) that a client reads as text besides its content. */
const OTHER_ANSWER_TEXTS = ['refusal', 'reasoning', 'reasoning_content'] as const;

/**
 * Every text slot of a JSON answer a client reads, for output checks: each choice's content or completion text, and
 * its message's refusal, reasoning (and the text of each of its `thinking_blocks`, which POST /v1/messages answers as
 * thinking blocks) and the arguments of its tool calls (and of a legacy `function_call`), the model's text as much as
 * its content is. A thinking block's signature and a redacted block's data are opaque: neither read nor changed.
 */
export function answerCheckSlots(answer: Record<string, unknown>): TextSlot[] {
  const slots = answerSlots(answer);
  const choices = Array.isArray(answer.choices) ? (answer.choices as unknown[]) : [];
  for (const choice of choices) {
    const message = (choice as { message?: unknown } | null)?.message;
    if (!message || typeof message !== 'object') continue;
    const record = message as Record<string, unknown>;
    for (const name of OTHER_ANSWER_TEXTS) stringSlot(record, name, slots);
    if (Array.isArray(record.thinking_blocks)) for (const block of record.thinking_blocks) if ((block as { type?: unknown } | null)?.type === 'thinking') stringSlot(block, 'thinking', slots);
    if (Array.isArray(record.tool_calls)) for (const call of record.tool_calls) stringSlot((call as { function?: unknown } | null)?.function, 'arguments', slots);
    stringSlot(record.function_call, 'arguments', slots);
  }
  return slots;
}

/** The texts of a content value, as {@link contentSlots} finds them, without the slots. */
function contentTexts(content: unknown, into: string[]): void {
  if (typeof content === 'string') into.push(content);
  else if (Array.isArray(content)) {
    for (const part of content) if (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string') into.push((part as { text: string }).text);
  }
}

/** `joinSlots(answerSlots(answer))` without building the slots: the text of a JSON answer, for the request log. */
export function answerText(answer: Record<string, unknown>): string {
  const texts: string[] = [];
  if (Array.isArray(answer.choices)) {
    for (const choice of answer.choices as Array<Record<string, unknown>>) {
      if (choice.message && typeof choice.message === 'object') contentTexts((choice.message as Record<string, unknown>).content, texts);
      else if (typeof choice.text === 'string') texts.push(choice.text);
    }
  }
  return texts.length === 1 ? texts[0]! : texts.join('\n');
}

/** The text a stream chunk adds: the first choice's delta content, or completion text. */
export function chunkText(payload: string): string {
  if (payload === '[DONE]') return '';
  try {
    const chunk = JSON.parse(payload) as { choices?: Array<{ delta?: { content?: unknown }; text?: unknown }> };
    const choice = chunk.choices?.[0];
    const text = choice?.delta?.content ?? choice?.text;
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}

/**
 * The texts a stream chunk adds, as `[text key, text]` pairs: per choice, its delta content or completion text (key
 * `"<index>"`), its refusal, reasoning and reasoning_content, each tool call's arguments and a legacy function call's,
 * each keyed apart (`"<index>:refusal"`, `"<index>:tool:<call index>"`, …), as a client joins each into a text of its own,
 * and the text of its `thinking_blocks` (`"<index>:thinking_blocks"`). Throws 502 `upstream_invalid_response` for a
 * payload that is not JSON (nor empty): output checks cannot read it, and it would reach the client unchecked.
 */
export function chunkChoiceTexts(payload: string): Array<[string, string]> {
  // `[DONE]` and an empty event (some servers send one to keep the connection open) carry no text.
  if (payload === '[DONE]' || payload.trim() === '') return [];
  let chunk: { choices?: unknown };
  try {
    chunk = JSON.parse(payload) as { choices?: unknown };
  } catch {
    throw Errors.upstreamInvalidResponse(['a stream event is not JSON, so the output checks cannot read it']);
  }
  if (!chunk || !Array.isArray(chunk.choices)) return [];
  const texts: Array<[string, string]> = [];
  const add = (key: string, text: unknown): void => {
    if (typeof text === 'string' && text !== '') texts.push([key, text]);
  };
  chunk.choices.forEach((choice: unknown, position) => {
    if (!choice || typeof choice !== 'object') return;
    const { index, delta, text } = choice as { index?: unknown; delta?: unknown; text?: unknown };
    const at = Number.isSafeInteger(index) ? (index as number) : position;
    const record = delta && typeof delta === 'object' ? (delta as Record<string, unknown>) : {};
    add(String(at), record.content ?? text);
    for (const name of OTHER_ANSWER_TEXTS) add(`${at}:${name}`, record[name]);
    add(`${at}:function_call`, (record.function_call as { arguments?: unknown } | null | undefined)?.arguments);
    if (Array.isArray(record.tool_calls)) {
      record.tool_calls.forEach((call: unknown, position: number) => {
        const callIndex = (call as { index?: unknown } | null)?.index;
        add(`${at}:tool:${Number.isSafeInteger(callIndex) ? (callIndex as number) : position}`, (call as { function?: { arguments?: unknown } } | null)?.function?.arguments);
      });
    }
    // The text an OpenAI-format server streams inside thinking blocks (as well as, or instead of, reasoning_content).
    if (Array.isArray(record.thinking_blocks)) for (const block of record.thinking_blocks) add(`${at}:thinking_blocks`, (block as { thinking?: unknown } | null)?.thinking);
  });
  return texts;
}

/** Joins slots into one text for checks that look at the whole exchange. */
export function joinSlots(slots: TextSlot[]): string {
  return slots.map((slot) => slot.text).join('\n');
}
