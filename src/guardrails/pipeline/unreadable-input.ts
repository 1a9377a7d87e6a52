// Refuses a request carrying content its input checks cannot read (images, audio, PDFs and other binary files) when the policy says to.
import { Errors } from '../../errors/error-registry.js';
import { isTextFileData } from './message-text.js';
import { chatContentParts, isRecord, type CheckedRequest } from './content-parts.js';
import { isPdfData, pdfReadingOf } from '../pdf/pdf-file-texts.js';

/** What a `file` part's file holds that no check reads, or undefined when all of it is read (a text file inline, a name). */
function unreadableFile(file: unknown): string | undefined {
  if (!isRecord(file)) return 'a file part without a file object';
  if (file.file_id !== undefined && file.file_id !== null) return 'a file stored at the provider (file_id)';
  for (const key of Object.keys(file)) if (key !== 'file_data' && key !== 'filename') return `a file carried as '${key.slice(0, 40)}'`;
  const data = file.file_data;
  if (data === undefined || data === null || isTextFileData(data)) return undefined;
  if (isPdfData(data)) {
    const reading = pdfReadingOf(file);
    return reading === undefined ? 'a PDF file' : reading.unreadable;
  }
  return 'a binary file';
}

/**
 * What a content part holds that no input check reads, or undefined when the checks read all of it: a text part
 * (`type` "text" or none, with a string `text`), a refusal, or a file part whose file is text sent inline.
 */
function unreadablePart(part: unknown): string | undefined {
  if (!isRecord(part)) return 'not an object';
  const type = part.type;
  if ((type === 'text' || type === undefined) && typeof part.text === 'string') return undefined;
  if (type === 'refusal' && typeof part.refusal === 'string') return undefined;
  if (type === 'image_url') return 'an image';
  if (type === 'input_audio') return 'audio';
  if (type === 'file') return unreadableFile(part.file);
  return `a part of type ${JSON.stringify(String(type)).slice(0, 60)}`;
}

function refuse(param: string, what: string): never {
  throw Errors.validation([`The part '${param}' is ${what}, which the input guardrail policy cannot read; its unreadable_content setting refuses such content.`], { param });
}

/**
 * Throws 400 `invalid_value` naming the first part of the request that holds content the input checks cannot read:
 * an image (`image_url`), audio (`input_audio`), a file that is not text sent inline (a PDF or other binary
 * `file_data`, a `file_id`; a PDF whose text was read is read), a part of any other type, and an assistant
 * message's `audio` (spoken output it refers to). For a `/v1/messages` or `/v1/responses` request, the part is
 * named as the client sent it (see part-origins). The policy calls for this with `unreadable_content: "reject"`; by
 * default such content passes unread.
 */
export function refuseUnreadableInput({ endpoint, body }: CheckedRequest): void {
  if (endpoint === 'chat') {
    for (const { part, param } of chatContentParts(body)) {
      const what = unreadablePart(part);
      if (what !== undefined) refuse(param, what);
    }
    const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
    messages.forEach((message, index) => {
      if (isRecord(message) && message.audio !== undefined && message.audio !== null) refuse(`messages[${index}].audio`, 'spoken output');
    });
    return;
  }
  // A multimodal prompt or input (moderations: text and image_url parts); strings and token ids are dealt with elsewhere.
  const key = endpoint === 'completions' || endpoint === 'images' || endpoint === 'transcriptions' ? 'prompt' : 'input';
  const value = body[key];
  if (!Array.isArray(value)) return;
  value.forEach((item: unknown, index) => {
    if (!isRecord(item)) return;
    const what = unreadablePart(item);
    if (what !== undefined) refuse(`${key}[${index}]`, what);
  });
}
