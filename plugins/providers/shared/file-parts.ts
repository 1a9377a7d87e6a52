// OpenAI's file parts (`{"type":"file","file":{"file_data","filename"}}`, a PDF or text inline), read for the adapters that translate them.
import { Errors } from '../../../src/plugins/plugin-api.js';
import { parseDataUrl } from './data-url.js';

/** A file part of a user message: its bytes inline, as base64 with their media type, and its name when given. */
export interface OpenAiFilePart {
  type: 'file';
  file: { mediaType: string; data: string; filename?: string };
  cache_control?: { type: string; ttl?: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(message: string, param: string): never {
  throw Errors.validation([message], { param });
}

/**
 * A `file` part as the translating adapters take it: `file.file_data`, a base64 `data:` URL, and an optional
 * `file.filename`. A `file_id` (a file stored at OpenAI, which no other provider can read) or data of another form is
 * 400 naming the member.
 */
export function readFilePart(part: Record<string, unknown>, where: string): Omit<OpenAiFilePart, 'cache_control'> {
  const file = isRecord(part.file) ? part.file : invalid(`${where}.file must be an object.`, `${where}.file`);
  if (file.file_id !== undefined && file.file_data === undefined) {
    invalid(`${where}.file.file_id names a file stored at OpenAI, which this provider cannot read; send its bytes as file_data.`, `${where}.file.file_id`);
  }
  const inline = typeof file.file_data === 'string' ? parseDataUrl(file.file_data) : undefined;
  if (!inline) invalid(`${where}.file.file_data must be a base64 data: URL (data:application/pdf;base64,…).`, `${where}.file.file_data`);
  const filename = typeof file.filename === 'string' && file.filename !== '' ? { filename: file.filename } : {};
  return { type: 'file', file: { mediaType: inline.mediaType, data: inline.data, ...filename } };
}

/**
 * Anthropic's document block for a file part: a PDF as a base64 source, plain text as a text source (decoded), with
 * the file's name as the document's title. Another media type is 400 naming the part.
 */
export function anthropicDocumentBlock(part: OpenAiFilePart, where: string): Record<string, unknown> {
  const { mediaType, data, filename } = part.file;
  const title = filename === undefined ? {} : { title: filename };
  if (mediaType === 'application/pdf') return { type: 'document', source: { type: 'base64', media_type: mediaType, data }, ...title };
  if (mediaType === 'text/plain') return { type: 'document', source: { type: 'text', media_type: mediaType, data: Buffer.from(data, 'base64').toString('utf8') }, ...title };
  return invalid(`${where}: the anthropic provider takes PDF (application/pdf) and plain text (text/plain) files, not ${mediaType}.`, where);
}
