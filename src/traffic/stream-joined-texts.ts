// The texts of an OpenAI-format stream chunk that a client joins (per choice and member), and chunks that carry held text.

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Texts held back at most in one stream: past it, all are sent (bounds what many choices or tool calls keep). */
export const MAX_HELD_TEXTS = 256;

/** The delta members a client joins into one text each, besides tool-call and function-call arguments. */
const DELTA_TEXTS = ['content', 'refusal', 'reasoning', 'reasoning_content'] as const;

/** Where one joined text sits in a chunk's choice: completion text, a delta member, or call arguments. */
export type TextPlace = { kind: 'text' } | { kind: 'delta'; name: string } | { kind: 'function_call' } | { kind: 'tool'; index: number };

/** One joined text a chunk adds to: `holder[member]` is its string, `key` names it in the stream (`"<choice>:<member>"`). */
export interface ChunkTextMember {
  holder: Json;
  member: string;
  place: TextPlace;
  key: string;
}

/**
 * One choice of a chunk: its index, whether it carries a `finish_reason`, the joined texts it adds to, and whether it
 * ends the choice's texts so far without adding to them (a thinking block's signature or a redacted block, in
 * `delta.thinking_blocks`: the thinking text before it must go out first, or a client would split the block).
 */
export interface ChunkChoiceTexts {
  choice: number;
  finishing: boolean;
  texts: ChunkTextMember[];
  boundary: boolean;
  /**
   * The thinking blocks of `delta.thinking_blocks` that carry text of their own (an OpenAI-format server may stream a
   * block's text there as well as, or instead of, in `reasoning_content`): each is a text a client reads whole.
   */
  blockTexts: Json[];
}

/**
 * The joined texts of a chunk, choice by choice: per choice, its completion `text`, its delta's `content`, `refusal`,
 * `reasoning` and `reasoning_content`, a legacy function call's and each tool call's `arguments` (string members only).
 */
export function chunkChoiceMembers(chunk: Json): ChunkChoiceTexts[] {
  const out: ChunkChoiceTexts[] = [];
  const choices = Array.isArray(chunk.choices) ? (chunk.choices as unknown[]) : [];
  for (let position = 0; position < choices.length; position++) {
    const choice = choices[position];
    if (!isRecord(choice)) continue;
    const index = typeof choice.index === 'number' ? choice.index : position;
    const texts: ChunkTextMember[] = [];
    const add = (holder: Json, member: string, place: TextPlace, key: string): void => {
      texts.push({ holder, member, place, key: `${index}:${key}` });
    };
    if (typeof choice.text === 'string') add(choice, 'text', { kind: 'text' }, 'text');
    const delta = choice.delta;
    if (isRecord(delta)) {
      for (const name of DELTA_TEXTS) if (typeof delta[name] === 'string') add(delta, name, { kind: 'delta', name }, name);
      if (isRecord(delta.function_call) && typeof delta.function_call.arguments === 'string') add(delta.function_call, 'arguments', { kind: 'function_call' }, 'function_call');
      if (Array.isArray(delta.tool_calls)) {
        delta.tool_calls.forEach((call: unknown, at: number) => {
          if (!isRecord(call) || !isRecord(call.function) || typeof call.function.arguments !== 'string') return;
          const tool = typeof call.index === 'number' ? call.index : at;
          add(call.function, 'arguments', { kind: 'tool', index: tool }, `tool:${tool}`);
        });
      }
    }
    const blocks = isRecord(delta) && Array.isArray(delta.thinking_blocks) ? (delta.thinking_blocks as unknown[]) : undefined;
    const blockTexts = (blocks ?? []).filter((block): block is Json => isRecord(block) && typeof block.thinking === 'string' && block.thinking !== '');
    out.push({ choice: index, finishing: choice.finish_reason !== null && choice.finish_reason !== undefined, texts, boundary: blocks !== undefined, blockTexts });
  }
  return out;
}

/** A text held back from one member of a choice, with the number of the event that last added to it. */
export interface HeldText {
  choice: number;
  place: TextPlace;
  text: string;
  event: number;
}

/**
 * The texts a stream holds back, by key, and the last chunk read, which frames the chunks that carry them. A choice's held texts in members a chunk does not continue are due before
 * that chunk (another member's text, or the finish, comes next), so the order a client joins them in holds.
 */
export class HeldTexts<T extends HeldText> {
  private readonly texts = new Map<string, T>();
  /** The same texts by choice, so a chunk of many choices finds each choice's own without reading every held text. */
  private readonly byChoice = new Map<number, Map<string, T>>();
  /** The last chunk read, whose members other than its choices frame a chunk of held text. */
  private frame: string | undefined;
  private events = 0;

  /**
   * Reads a payload to rewrite: its chunk and the event's number (the payload then frames chunks of held text), or
   * undefined for a payload that is not a chunk with choices, which is added to `out` as it is.
   */
  open(payload: string, out: string[]): { chunk: Json; event: number } | undefined {
    const chunk = parseChunk(payload);
    if (!chunk) {
      out.push(payload);
      return undefined;
    }
    this.frame = payload;
    return { chunk, event: ++this.events };
  }

  /** Notes a chunk passed on without being read, to frame later chunks of held text. */
  framedBy(payload: string): void {
    this.frame = payload;
  }

  /** A chunk carrying `texts`, framed like the last chunk read. */
  chunkOf(texts: ReadonlyArray<Pick<HeldText, 'choice' | 'place' | 'text'>>): string {
    return chunkOfTexts(this.frame, texts);
  }

  get size(): number {
    return this.texts.size;
  }

  get(key: string): T | undefined {
    return this.texts.get(key);
  }

  /** Holds `text` under `key` (a key stays with the choice it was first held for). */
  set(key: string, text: T): void {
    const before = this.texts.get(key);
    if (before) this.byChoice.get(before.choice)?.delete(key);
    this.texts.set(key, text);
    let ofChoice = this.byChoice.get(text.choice);
    if (!ofChoice) this.byChoice.set(text.choice, (ofChoice = new Map()));
    ofChoice.set(key, text);
  }

  delete(key: string): void {
    const held = this.texts.get(key);
    if (!held) return;
    this.texts.delete(key);
    const ofChoice = this.byChoice.get(held.choice);
    ofChoice?.delete(key);
    if (ofChoice?.size === 0) this.byChoice.delete(held.choice);
  }

  /** Takes out the texts `choice` holds that event `event` did not add to, in the order they were first held. */
  takeDue(choice: number, event: number): T[] {
    const ofChoice = this.byChoice.get(choice);
    if (!ofChoice) return [];
    const due: T[] = [];
    for (const [key, held] of ofChoice) {
      if (held.event === event) continue;
      due.push(held);
      ofChoice.delete(key);
      this.texts.delete(key);
    }
    if (ofChoice.size === 0) this.byChoice.delete(choice);
    return due;
  }

  /** The held texts, in the order they were first held. */
  values(): IterableIterator<T> {
    return this.texts.values();
  }

  /** Takes out every held text. */
  takeAll(): T[] {
    const all = [...this.texts.values()];
    this.texts.clear();
    this.byChoice.clear();
    return all;
  }
}

/** A chunk carrying `texts`, framed like `frame` (a chunk payload read before: its members but `choices` and `usage`). */
function chunkOfTexts(frame: string | undefined, texts: ReadonlyArray<Pick<HeldText, 'choice' | 'place' | 'text'>>): string {
  const { choices: _choices, usage: _usage, ...head } = (frame === undefined ? undefined : parseChunk(frame)) ?? {};
  const byChoice = new Map<number, Json>();
  for (const { choice, place, text } of texts) {
    let target = byChoice.get(choice);
    if (!target) byChoice.set(choice, (target = { index: choice }));
    if (place.kind === 'text') {
      target.text = text;
      continue;
    }
    const delta = (target.delta ??= {}) as Json;
    if (place.kind === 'delta') delta[place.name] = text;
    else if (place.kind === 'function_call') delta.function_call = { arguments: text };
    else ((delta.tool_calls ??= []) as Json[]).push({ index: place.index, function: { arguments: text } });
  }
  for (const target of byChoice.values()) target.finish_reason = null;
  return JSON.stringify({ ...head, choices: [...byChoice.values()] });
}

/** A payload as a chunk with choices, or undefined (an error line, text that is not JSON). */
export function parseChunk(payload: string): Json | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return undefined;
  }
  return isRecord(parsed) && Array.isArray(parsed.choices) ? parsed : undefined;
}
