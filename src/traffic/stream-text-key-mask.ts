// Masks a provider key an OpenAI-format stream cuts across events: each text a client joins is read as one, and only an end that may begin a form waits.
import type { SecretFormMatcher } from '../secrets/secret-form-matcher.js';
import { chunkChoiceMembers, HeldTexts, MAX_HELD_TEXTS, type HeldText, type Json, type TextPlace } from './stream-joined-texts.js';

/**
 * A member named like a joined text, with a string value: in a payload without a backslash (so no escape), its value
 * is the text itself. Extra matches (a member of that name elsewhere) only cost a parse.
 */
const TEXT_MEMBER = /"(?:content|arguments|text|refusal|reasoning|reasoning_content)"\s*:\s*"([^"]*)"/g;

/**
 * Reads the text members of OpenAI chat and completion chunks that a client joins (per choice: `delta.content`,
 * `refusal`, `reasoning`, `reasoning_content`, each tool call's and the legacy function call's `arguments`, and a
 * completion's `text`) as one continuous text each, so a form of the provider key cut across events is masked like
 * one inside an event. An end that may begin a form (at most the longest form less one character; nothing after a
 * line break) is held back and put in front of the same member's next text. What a choice holds is sent, masked, no
 * later than its `finish_reason` chunk (or in a chunk of its own just before it), before text of another member of
 * that choice, and before `[DONE]` or the end of the stream (in a chunk of its own), so no text is lost and the
 * order holds. A payload that needs no change passes as the same string: it is not rewritten, and one without JSON
 * escapes and without a text end to hold is not even parsed. One mask per stream: it holds state.
 * @example
 * const split = new StreamTextKeyMask(SecretFormMatcher.of(providerKey, 'text')!);
 * for (const payload of upstreamPayloads) split.push(payload, sent); // `sent`: the payloads to write, in order
 * split.end(sent);
 */
export class StreamTextKeyMask {
  private readonly held = new HeldTexts<HeldText>();
  constructor(private readonly forms: SecretFormMatcher) {}

  /** Adds to `out` what to send for one payload, every form inside it masked: held text first when due, then the payload. */
  push(upstream: string, out: string[]): void {
    const payload = this.forms.mask(upstream);
    if (payload === '[DONE]') {
      this.end(out);
      out.push(payload);
      return;
    }
    if (this.held.size === 0 && !this.mayHold(payload)) {
      out.push(payload);
      if (payload.includes('"choices"')) this.held.framedBy(payload);
      return;
    }
    const opened = this.held.open(payload, out);
    if (!opened) return;
    const { chunk, event } = opened;
    let changed = false;
    let due: HeldText[] | undefined;
    for (const { choice, finishing, texts, boundary } of chunkChoiceMembers(chunk)) {
      for (const text of texts) if (this.joinText(text.holder, text.member, text.place, text.key, choice, finishing, event)) changed = true;
      // Text this choice holds in members this chunk does not continue is sent before it: another member's text, a thinking block's end, or the finish, comes next.
      if (this.held.size > 0 && (texts.length > 0 || finishing || boundary)) {
        const taken = this.held.takeDue(choice, event);
        if (taken.length > 0) (due ??= []).push(...taken);
      }
    }
    if (due) out.push(this.held.chunkOf(due));
    out.push(changed ? JSON.stringify(chunk) : payload);
    if (this.held.size > MAX_HELD_TEXTS) this.end(out);
  }

  /** Adds to `out` a chunk with every text still held (none when nothing is): before `[DONE]`, or at the end of the stream. */
  end(out: string[]): void {
    if (this.held.size === 0) return;
    out.push(this.held.chunkOf(this.held.takeAll()));
  }

  /**
   * False when, with nothing held, the payload surely needs no change: it has no backslash (no escape may hide a form
   * from the scan of the raw text), and no text member's end may begin a form. The common event is not parsed.
   */
  private mayHold(payload: string): boolean {
    if (payload.includes('\\')) return true;
    TEXT_MEMBER.lastIndex = 0;
    for (let match = TEXT_MEMBER.exec(payload); match; match = TEXT_MEMBER.exec(payload)) if (this.forms.heldLength(match[1]!) > 0) return true;
    return false;
  }

  /** Joins one member's text to what it held: masks the whole, holds back an end that may begin a form, and answers true when the member changed. */
  private joinText(holder: Json, member: string, place: TextPlace, key: string, choice: number, finishing: boolean, event: number): boolean {
    const raw = holder[member] as string;
    const before = this.held.size === 0 ? undefined : this.held.get(key);
    const text = before ? before.text + raw : raw;
    const masked = this.forms.mask(text);
    const keep = finishing || masked === '' ? 0 : this.forms.heldLength(masked);
    if (keep === 0) {
      if (before) this.held.delete(key);
    } else if (before) {
      before.text = masked.slice(masked.length - keep);
      before.event = event;
    } else {
      this.held.set(key, { choice, place, text: masked.slice(masked.length - keep), event });
    }
    const send = keep === 0 ? masked : masked.slice(0, masked.length - keep);
    if (send === raw) return false;
    holder[member] = send;
    return true;
  }
}

