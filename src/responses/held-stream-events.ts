// A held /v1/responses stream's events, rewritten from the final items so that text an output transform changed goes out changed.
import type { OutputItem } from './responses-types.js';

/** One streaming event as the response builder emits it. */
export type StreamEvent = Record<string, unknown> & { type: string };

/** The text of a message item (its output_text parts joined). */
function messageText(item: OutputItem): string {
  return (Array.isArray(item.content) ? (item.content as Array<{ text?: unknown }>) : []).map((part) => (typeof part.text === 'string' ? part.text : '')).join('');
}

/** The refusal of a message item (its refusal parts joined). */
function refusalText(item: OutputItem): string {
  return (Array.isArray(item.content) ? (item.content as Array<{ refusal?: unknown }>) : []).map((part) => (typeof part.refusal === 'string' ? part.refusal : '')).join('');
}

/**
 * The events of a held stream with the model's text taken from `output`, the items after the output checks (whose DLP
 * transform rewrote message text, refusals and function call arguments in place): a message's text (or refusal) goes out
 * in one delta and its done events carry it; a function call's arguments likewise. Sequence numbers are counted again. Events of
 * items not in `output` are kept as they are.
 */
export function rewriteHeldEvents(events: readonly StreamEvent[], output: readonly OutputItem[]): StreamEvent[] {
  const byId = new Map(output.map((item) => [item.id, item]));
  const deltaSent = new Set<string>();
  const out: StreamEvent[] = [];
  for (const event of events) {
    const id = typeof event.item_id === 'string' ? event.item_id : (event.item as { id?: unknown } | undefined)?.id;
    const item = typeof id === 'string' ? byId.get(id) : undefined;
    const args = typeof item?.arguments === 'string' && item.type === 'function_call' ? item.arguments : undefined;
    let next: StreamEvent | undefined = event;
    if (item) {
      switch (event.type) {
        case 'response.output_item.added':
          next = args === undefined ? event : { ...event, item: { ...(event.item as object), arguments: args } };
          break;
        case 'response.output_item.done':
          next = { ...event, item: structuredClone(item) };
          break;
        case 'response.output_text.delta':
          next = deltaSent.has(item.id) ? undefined : { ...event, delta: messageText(item) };
          deltaSent.add(item.id);
          break;
        case 'response.output_text.done':
          next = { ...event, text: messageText(item) };
          break;
        case 'response.refusal.delta':
          next = deltaSent.has(item.id) ? undefined : { ...event, delta: refusalText(item) };
          deltaSent.add(item.id);
          break;
        case 'response.refusal.done':
          next = { ...event, refusal: refusalText(item) };
          break;
        case 'response.content_part.done': {
          const part = event.part as { type?: unknown } | undefined;
          next = { ...event, part: part?.type === 'refusal' ? { ...part, refusal: refusalText(item) } : { ...part, text: messageText(item) } };
          break;
        }
        case 'response.function_call_arguments.delta':
          next = args === undefined ? event : { ...event, delta: args };
          break;
        case 'response.function_call_arguments.done':
          next = args === undefined ? event : { ...event, arguments: args };
          break;
      }
    }
    if (next) out.push({ ...next, sequence_number: out.length });
  }
  return out;
}
