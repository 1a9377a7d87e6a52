// Holds streamed output until its window passes the policy's output checks (reject mode), or lets it flow.
import { once } from 'node:events';
import type { Response } from 'express';
import type { GatewayError } from '../errors/error-registry.js';
import type { OutputGuard } from '../guardrails/pipeline/output-guard.js';

/** Writes and waits for drain when the socket's buffer is full. */
export async function write(res: Response, chunk: string | Uint8Array): Promise<void> {
  if (!res.write(chunk) && !res.destroyed) await once(res, 'drain');
}

/** Holds streamed output until its window passes the output checks (reject mode), or lets it flow. */
export class StreamGate {
  private held: Array<string | Uint8Array> = [];
  /** How many payloads the output queued so far carries, and how many the client has been sent (see {@link push}). */
  private queuedPayloads = 0;
  private sentPayloadCount = 0;
  private heldChars = 0;
  private totalChars = 0;
  /**
   * Each text so far (per choice: content, refusal, reasoning, each tool call's arguments; see chunkChoiceTexts), and how
   * many of its characters are held: each is checked on its own. In reject mode only the end a window can reach is kept.
   */
  private readonly choices = new Map<string, { text: string; held: number }>();

  constructor(
    private readonly res: Response,
    private readonly guard: OutputGuard | undefined,
  ) {}

  /**
   * Queues output carrying `added` text (per text key); checks and releases it when enough text is held. `payloads`,
   * when given, is how many stream payloads the output written so far carries once this chunk is ({@link sentPayloads}).
   */
  async push(chunk: string | Uint8Array, added: ReadonlyArray<[string, string]>, payloads?: number): Promise<GatewayError | undefined> {
    if (payloads !== undefined) this.queuedPayloads = payloads;
    if (!this.guard) {
      await write(this.res, chunk);
      this.sentPayloadCount = this.queuedPayloads;
      return undefined;
    }
    for (const [index, text] of added) {
      const choice = this.choices.get(index);
      if (choice) {
        choice.text += text;
        choice.held += text.length;
      } else this.choices.set(index, { text, held: text.length });
      this.heldChars += text.length;
      this.totalChars += text.length;
    }
    this.held.push(chunk);
    if (!this.guard.blocking) return this.release();
    return this.heldChars >= this.guard.windowing.stepChars ? this.check() : undefined;
  }

  /** How many payloads the client has been sent, as counted by the `payloads` of {@link push}. */
  get sentPayloads(): number {
    return this.sentPayloadCount;
  }

  /** Characters of answer text written to the client so far (checked text minus what is still held). */
  get sentChars(): number {
    return this.totalChars - this.heldChars;
  }

  /** Checks at the end of the stream: the last window in reject mode, the whole text in inspect mode. */
  async finish(): Promise<GatewayError | undefined> {
    return this.guard ? this.check(!this.guard.blocking) : undefined;
  }

  private async check(whole = false): Promise<GatewayError | undefined> {
    // Each choice's window reaches back over all its held text, however much one chunk brought: nothing is released unchecked.
    const windowChars = this.guard!.windowing.windowChars;
    const windows = [...this.choices.values()].map((choice) => (whole ? choice.text : choice.text.slice(-Math.max(windowChars, choice.held))));
    const rejected = await this.guard!.checkWindows(windows.length > 0 ? windows : ['']);
    if (rejected) return rejected;
    // In reject mode, later windows reach back at most `windowChars` before what is held then: only that much is kept.
    // Kept whole, each window's slice copied all the text so far, so a long answer took time in its length squared.
    if (this.guard!.blocking) for (const choice of this.choices.values()) if (choice.text.length > windowChars) choice.text = choice.text.slice(-windowChars);
    return this.release();
  }

  private async release(): Promise<undefined> {
    for (const chunk of this.held) if (chunk.length > 0) await write(this.res, chunk);
    this.held = [];
    this.sentPayloadCount = this.queuedPayloads;
    this.heldChars = 0;
    for (const choice of this.choices.values()) choice.held = 0;
    return undefined;
  }
}
