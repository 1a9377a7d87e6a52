// Document blocks of a Messages request as OpenAI file parts: a base64 PDF or plain text inline; what cannot be carried is refused by name.
import { Errors } from '../errors/error-registry.js';
import { shownType } from './messages-errors.js';
import { breakpointOf } from './messages-extensions.js';

type Block = Record<string, unknown>;

const isRecord = (value: unknown): value is Block => typeof value === 'object' && value !== null && !Array.isArray(value);

function invalid(message: string, param: string): never {
  throw Errors.validation([message], { param });
}

/**
 * A `document` block as an OpenAI `file` part (`{"type":"file","file":{"file_data","filename"}}`), which the Anthropic
 * adapter sends as a document again, Gemini as inline data and OpenAI-format servers as is: a `base64` PDF source as a
 * `data:application/pdf` URL, a `text` source as a `data:text/plain` URL; `title` is the file's name (`document.pdf` or
 * `document.txt` without one), and a `cache_control` rides on the part. 400 naming the member for what the part cannot
 * carry: a `url`, `content` or `file` source (a URL would have to be fetched, which the gateway never does for a
 * client), `context`, and `citations` turned on (answers' citations are not translated).
 */
export function documentPart(item: Block, where: string): Block {
  if (isRecord(item.citations) && item.citations.enabled === true) {
    invalid(`${where}.citations: cited answers are not translated by this gateway; send the document without citations.`, `${where}.citations`);
  }
  if (typeof item.context === 'string' && item.context !== '') invalid(`${where}.context is not carried by this gateway; put it in a text block.`, `${where}.context`);
  const source = isRecord(item.source) ? item.source : invalid(`${where}.source is required.`, `${where}.source`);
  let fileData: string;
  if (source.type === 'base64' && source.media_type === 'application/pdf' && typeof source.data === 'string') {
    fileData = `data:application/pdf;base64,${source.data}`;
  } else if (source.type === 'text' && typeof source.data === 'string') {
    fileData = `data:text/plain;base64,${Buffer.from(source.data, 'utf8').toString('base64')}`;
  } else {
    return invalid(`${where}.source of type ${shownType(source.type)} is not translated by this gateway; send a base64 PDF or plain text.`, `${where}.source`);
  }
  const filename = typeof item.title === 'string' && item.title !== '' ? item.title : source.type === 'text' ? 'document.txt' : 'document.pdf';
  return { type: 'file', file: { file_data: fileData, filename }, ...breakpointOf(item) };
}
