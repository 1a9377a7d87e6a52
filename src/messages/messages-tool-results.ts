// The content of a Messages `tool_result` block as chat carries it: text for the tool message, and the images and documents that follow it.
import { Errors } from '../errors/error-registry.js';
import { shownType } from './messages-errors.js';
import { openaiImageUrl } from '../../plugins/providers/anthropic/mapping.js';
import { documentPart } from './messages-documents.js';
import { notePartOrigin } from '../guardrails/pipeline/part-origins.js';

function invalid(message: string, param: string): never {
  throw Errors.validation([message], { param });
}

/**
 * The content of a tool result as a tool message's: a string, or its text blocks joined, or text, `image_url` and
 * `file` parts when it holds images or documents (a document as a top-level one is translated, without its breakpoint:
 * the result's own goes on the tool message). Any other block (a search result) is 400 naming it, never dropped.
 */
function toolResultContent(content: unknown, where: string): string | Array<Record<string, unknown>> {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return invalid(`${where}.content must be a string or an array of blocks.`, `${where}.content`);
  const parts = content.map((item: unknown, index) => {
    const block = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
    if (block.type === 'text' && typeof block.text === 'string') return { type: 'text', text: block.text };
    const url = block.type === 'image' && typeof block.source === 'object' && block.source !== null ? openaiImageUrl(block.source as Record<string, unknown>) : undefined;
    if (url) return notePartOrigin<Record<string, unknown>>({ type: 'image_url', image_url: { url } }, `${where}.content[${index}]`);
    if (block.type === 'document') {
      const { cache_control: _breakpoint, ...part } = documentPart(block, `${where}.content[${index}]`);
      return notePartOrigin(part, `${where}.content[${index}]`);
    }
    return invalid(`${where}.content[${index}] has the type ${shownType(block.type)}, which this gateway does not translate in a tool result; use text, image or document.`, `${where}.content[${index}]`);
  });
  return parts.every((part) => part.type === 'text') ? parts.map((part) => part.text as string).join('') : parts;
}

/** Says what of a tool result follows it in the user message: `[1 image and 2 documents from this tool result follow]`. */
function heldNote(held: Array<Record<string, unknown>>): string {
  const count = (type: string, noun: string) => {
    const n = held.filter((part) => part.type === type).length;
    return n === 0 ? [] : [`${n} ${noun}${n === 1 ? '' : 's'}`];
  };
  const kinds = [...count('image_url', 'image'), ...count('file', 'document')];
  return `[${kinds.join(' and ')} from this tool result follow${held.length === 1 ? 's' : ''}]`;
}

/**
 * A tool result's content as chat carries it: the tool message's `text`, and the `held` image and file parts (in order)
 * that go in the user message after the tool messages, since chat APIs take neither in a tool message; the text then
 * says they follow (`[1 image from this tool result follows]`). 400 naming a block that cannot be carried.
 */
export function toolResultParts(content: unknown, where: string): { text: string; held: Array<Record<string, unknown>> } {
  const result = toolResultContent(content, where);
  if (typeof result === 'string') return { text: result, held: [] };
  const text = result.filter((part) => part.type === 'text').map((part) => part.text as string).join('');
  const held = result.filter((part) => part.type !== 'text');
  return { text: `${text}${text === '' ? '' : '\n'}${heldNote(held)}`, held };
}
