// A Responses message item's content as chat content: text parts, images and inline files, or a 400 naming the part.
import { Errors } from '../errors/error-registry.js';
import { notePartOrigin } from '../guardrails/pipeline/part-origins.js';

/** A chat content part: `text`, `image_url` or `file` (OpenAI's chat format, which every provider adapter translates). */
export type ChatContentPart = Record<string, unknown> & { type: string };

/** The Responses part types that carry text: the client's own and an earlier answer's. */
const TEXT_PARTS = new Set(['input_text', 'output_text', 'text']);

/** An image URL the gateway hands on without reading it: inline (`data:image/…;base64,`) or an https/http address for the provider to fetch. */
const IMAGE_URL = /^(?:data:image\/[\w.+-]+;base64,|https?:\/\/)/i;

/** A file's bytes inline as a base64 `data:` URL. */
const FILE_DATA = /^data:[\w.+-]+\/[\w.+-]+(?:;[\w.+-]+=[\w.+-]+)*;base64,/i;

const refuse = (message: string, param: string): never => {
  throw Errors.validation([message], { param });
};

/** One part of a message item as a chat part; throws a 400 naming the part for one no provider can read from here. */
function chatPart(part: Record<string, unknown>, role: string, param: string): ChatContentPart {
  const type = part.type;
  if (typeof type === 'string' && TEXT_PARTS.has(type)) {
    if (typeof part.text !== 'string') refuse(`The part '${param}' needs text as a string.`, `${param}.text`);
    return { type: 'text', text: part.text };
  }
  if (type === 'refusal' && role === 'assistant' && typeof part.refusal === 'string') return { type: 'text', text: part.refusal };
  if ((type === 'input_image' || type === 'input_file') && role !== 'user') refuse(`The part '${param}' is a ${type}; only user messages may carry images and files.`, `${param}.type`);
  if (type === 'input_image') {
    if (part.file_id !== undefined && part.file_id !== null) refuse(`The part '${param}' names a file stored at OpenAI (file_id), which this gateway cannot read; send the image as image_url (a data: URL).`, `${param}.file_id`);
    const url = part.image_url;
    if (typeof url !== 'string' || !IMAGE_URL.test(url)) refuse(`The part '${param}' needs image_url: a base64 data:image/… URL or an https URL.`, `${param}.image_url`);
    const detail = typeof part.detail === 'string' && part.detail !== 'auto' ? { detail: part.detail } : {};
    return { type: 'image_url', image_url: { url, ...detail } };
  }
  if (type === 'input_file') {
    if (part.file_id !== undefined && part.file_id !== null) refuse(`The part '${param}' names a file stored at OpenAI (file_id), which this gateway cannot read; send its bytes as file_data.`, `${param}.file_id`);
    if (part.file_url !== undefined && part.file_url !== null) refuse(`The part '${param}' names a file by URL (file_url), which this gateway does not fetch; send its bytes as file_data.`, `${param}.file_url`);
    const data = part.file_data;
    if (typeof data !== 'string' || !FILE_DATA.test(data)) refuse(`The part '${param}' needs file_data: a base64 data: URL (data:application/pdf;base64,…).`, `${param}.file_data`);
    const filename = typeof part.filename === 'string' && part.filename !== '' ? { filename: part.filename } : {};
    return { type: 'file', file: { file_data: data, ...filename } };
  }
  return refuse(`The part '${param}' has type ${JSON.stringify(String(type)).slice(0, 80)}, which this gateway does not take in a ${role} message.`, `${param}.type`);
}

/**
 * A message item's `content` as chat content: a string as is; an array of text parts as their joined text (as
 * before); an array with images or files as chat parts: `input_image` → `image_url` (a `data:` URL or an https
 * address, never fetched by the gateway), `input_file` → `file` with its `file_data` (which the guardrail pipeline
 * reads when it is text). A `file_id`, a `file_url`, or a part of another type is a 400 naming it.
 */
export function chatContent(content: unknown, role: string, param: string): string | ChatContentPart[] {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) refuse(`The field '${param}' must be a string or an array of content parts.`, param);
  const parts = (content as unknown[]).map((part, index) => {
    if (!part || typeof part !== 'object' || Array.isArray(part)) refuse(`The part '${param}[${index}]' must be an object.`, `${param}[${index}]`);
    // An image or file part is named as the client sent it when the guardrail policy refuses what it cannot read.
    return notePartOrigin(chatPart(part as Record<string, unknown>, role, `${param}[${index}]`), `${param}[${index}]`);
  });
  if (parts.every((part) => part.type === 'text')) return parts.map((part) => part.text as string).join('');
  return parts;
}
