// Rewrites the texts of an OpenAI-format stream with the policy's output transform (DLP mask, redact, replace) as they flow, holding each text's end.
import { Errors } from '../errors/error-registry.js';
import type { OutputTransform } from '../guardrails/pipeline/output-transform.js';
import { applyReplacements } from '../guardrails/pipeline/text-replacements.js';
import { chunkChoiceMembers, HeldTexts, MAX_HELD_TEXTS, type HeldText, type Json } from './stream-joined-texts.js';

/** Characters of a text already sent that a step reads again before its held text, for detectors that look back (a word like "card"). */
const CONTEXT_CHARS = 100;

/** The most one text may hold (an entity that keeps growing, or a text held whole); past it the stream ends with an error. */
const MAX_HELD_CHARS = 1_048_576;

/** The most all texts of one stream may hold together (many choices or tool calls each held whole); past it the stream ends with an error. */
const MAX_STREAM_HELD_CHARS = 4 * MAX_HELD_CHARS;

/** One text of a choice not yet sent: `text` is as the provider sent it (held back), `context` the end of what was sent. */
interface PendingText extends HeldText {
  context: string;
  /** How long `text` must grow before the next step. */
  nextStep: number;
  /** A processor changed the text without saying where: it is held to its end and transformed whole. */
  whole: boolean;
}

/**
 * Transforms each text a client joins from stream chunks (per choice: content, refusal, reasoning, each tool call's
 * arguments, completion text; see {@link chunkChoiceMembers}) as one continuous text, without waiting for its end.
 * Each text is held back; once `holdChars + stepChars` characters are held, the transform runs on them (with up to
 * 100 characters sent before, for context) and the text up to `holdChars` from the end is sent transformed, cut
 * earlier where a replaced span (an entity) reaches into that end, so an entity is never sent half unreplaced unless it
 * is longer than the hold. The rest of a text is sent at its end: with its choice's `finish_reason`, before another
 * member of that choice, before `[DONE]` and at the end of the stream (in a chunk of its own, framed like the last).
 * A processor that changes a text without its spans makes that text wait for its end, to be transformed whole. The
 * text of a thinking block in `delta.thinking_blocks` (which some OpenAI-format servers stream) is transformed whole
 * in its own event.
 * Evaluations that fail throw (`guardrail_transform_failed`): nothing untransformed is ever answered. One per stream.
 */
export class StreamTextTransform {
  private readonly held = new HeldTexts<PendingText>();

  constructor(
    private readonly transform: OutputTransform,
    private readonly holdChars: number,
    private readonly stepChars: number,
  ) {}

  /** Adds to `out` what to send for one payload: texts of its choice now due first (in a chunk of their own), then the payload with its texts transformed as far as they can be. */
  async push(payload: string, out: string[]): Promise<void> {
    if (payload === '[DONE]') {
      await this.end(out);
      out.push(payload);
      return;
    }
    const opened = this.held.open(payload, out);
    if (!opened) return;
    const { chunk, event } = opened;
    // What to do with each text this chunk adds to, worked out once all of it is added (a text may come twice in a chunk).
    const acts = new Map<PendingText, { final: boolean; holder: Json; member: string }>();
    const due: PendingText[] = [];
    let changed = false;
    const work: Array<Promise<unknown>> = [];
    for (const { choice, finishing, texts, boundary, blockTexts } of chunkChoiceMembers(chunk)) {
      // A thinking block's own text comes whole in its event: transformed whole.
      for (const block of blockTexts) work.push(this.transform.transform(block.thinking as string).then((sent) => (block.thinking = sent)));
      if (blockTexts.length > 0) changed = true;
      for (const { holder, member, place, key } of texts) {
        const raw = holder[member] as string;
        let pending = this.held.get(key);
        if (!pending) {
          if (raw === '') continue;
          pending = { choice, place, text: '', event, context: '', nextStep: this.holdChars + this.stepChars, whole: false };
          this.held.set(key, pending);
        }
        pending.text += raw;
        pending.event = event;
        changed = true;
        holder[member] = '';
        if (finishing) this.held.delete(key);
        acts.set(pending, { final: finishing || acts.get(pending)?.final === true, holder, member });
      }
      // Text this choice holds in members this chunk does not continue is sent before it: another member's text, a thinking block's end, or the finish, comes next.
      if (this.held.size > 0 && (texts.length > 0 || finishing || boundary)) due.push(...this.held.takeDue(choice, event));
    }
    let heldChars = 0;
    for (const text of this.held.values()) heldChars += text.text.length;
    if (heldChars > MAX_STREAM_HELD_CHARS) work.push(Promise.reject(Errors.guardrailTransformFailed([this.transform.names.join(', '), `a stream's texts held more than ${MAX_STREAM_HELD_CHARS} characters in all`])));
    for (const [text, { final, holder, member }] of acts) {
      if (final) work.push(this.final(text).then((sent) => (holder[member] = sent)));
      else if (text.text.length > MAX_HELD_CHARS) work.push(Promise.reject(Errors.guardrailTransformFailed([this.transform.names.join(', '), `a streamed text held more than ${MAX_HELD_CHARS} characters`])));
      else if (!text.whole && text.text.length >= text.nextStep) work.push(this.step(text).then((sent) => (holder[member] = sent)));
    }
    const [flushed] = await Promise.all([this.finals(due), ...work]);
    if (flushed.length > 0) out.push(this.held.chunkOf(flushed));
    out.push(changed ? JSON.stringify(chunk) : payload);
    if (this.held.size > MAX_HELD_TEXTS) await this.end(out);
  }

  /** Adds to `out` a chunk with every text still held, transformed (none when nothing is): before `[DONE]`, or at the end of the stream. */
  async end(out: string[]): Promise<void> {
    if (this.held.size === 0) return;
    out.push(this.held.chunkOf(await this.finals(this.held.takeAll())));
  }

  private finals(texts: readonly PendingText[]): Promise<HeldText[]> {
    return Promise.all(texts.map(async (text) => ({ ...text, text: await this.final(text) })));
  }

  /** One step: transforms what `text` holds and answers the part that no longer waits, keeping the rest held. */
  private async step(text: PendingText): Promise<string> {
    const input = text.context + text.text;
    const offset = text.context.length;
    const spans = await this.transform.replacements(input);
    if (!spans) {
      text.whole = true;
      return '';
    }
    let cut = input.length - this.holdChars;
    // Spans are in order and apart: at most one reaches across the cut, and the cut moves to its start.
    for (const span of spans) {
      if (span.start < cut && span.end > cut) {
        cut = span.start;
        break;
      }
    }
    let sent = '';
    if (cut > offset) {
      sent = applyReplacements(input, spans, offset, cut);
      text.context = input.slice(Math.max(0, cut - CONTEXT_CHARS), cut);
      text.text = input.slice(cut);
    }
    // A step that released nothing (one span grows from the start of the held text: a long run a detector reads as one
    // entity) waits for the text to double before the next, so a text read again whole each step costs linear time.
    text.nextStep = text.text.length + (cut <= offset ? Math.max(this.stepChars, text.text.length) : this.stepChars);
    return sent;
  }

  /** The end of a text: all it holds, transformed. */
  private async final(text: PendingText): Promise<string> {
    if (text.text === '') return '';
    if (text.whole) return this.transform.transform(text.text);
    const input = text.context + text.text;
    const spans = await this.transform.replacements(input);
    return spans ? applyReplacements(input, spans, text.context.length, input.length) : this.transform.transform(text.text);
  }
}
