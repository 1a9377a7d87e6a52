// Reads a relayed transcription stream's SSE events (text deltas, the done event's text and usage) for the request log, within a bound.
import { StringDecoder } from 'node:string_decoder';

/** The most characters of transcript text, and of one pending SSE line, kept for the request log. */
export const MAX_TRANSCRIPT_CHARS = 1024 * 1024;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Follows a transcription stream as it is relayed (`transcript.text.delta` events, then `transcript.text.done` with the
 * whole text and `usage`) and answers what a JSON transcription answers, `{ text, usage }`, for the request log and
 * usage. It keeps at most {@link MAX_TRANSCRIPT_CHARS} of text and of a line not yet ended; a longer line (no event of
 * this stream is that long) stops the reading, and the text is cut at the bound.
 * @example
 * const reader = new TranscriptStreamReader();
 * reader.read(Buffer.from('data: {"type":"transcript.text.delta","delta":"Hi"}\n\n'));
 * reader.answer(); // { text: 'Hi' }
 */
export class TranscriptStreamReader {
  private readonly decoder = new StringDecoder('utf8');
  private pending = '';
  private deltas = '';
  private done?: string;
  private usage?: Record<string, unknown>;
  private stopped = false;
  private seen = false;

  /** Reads the next bytes of the stream (as sent to the client). */
  read(bytes: Buffer): void {
    if (this.stopped) return;
    const lines = (this.pending + this.decoder.write(bytes)).split('\n');
    this.pending = lines.pop() ?? '';
    if (this.pending.length > MAX_TRANSCRIPT_CHARS) {
      this.stopped = true;
      this.pending = '';
    }
    for (const line of lines) this.line(line.endsWith('\r') ? line.slice(0, -1) : line);
  }

  private line(line: string): void {
    if (!line.startsWith('data:')) return;
    let event: unknown;
    try {
      event = JSON.parse(line.slice(5).trim());
    } catch {
      return; // `[DONE]` or a payload that is not JSON carries no text
    }
    if (!isRecord(event)) return;
    this.seen = true;
    if (event.type === 'transcript.text.delta' && typeof event.delta === 'string' && this.deltas.length < MAX_TRANSCRIPT_CHARS) this.deltas += event.delta;
    if (event.type === 'transcript.text.done' && typeof event.text === 'string') this.done = event.text;
    if (isRecord(event.usage)) this.usage = event.usage;
  }

  /** The stream's transcript (the done event's text, else the deltas joined) and its usage; undefined when no event was read. */
  answer(): { text: string; usage?: Record<string, unknown> } | undefined {
    if (!this.stopped && this.pending !== '') this.line(this.pending);
    this.pending = '';
    if (!this.seen) return undefined;
    const text = (this.done ?? this.deltas).slice(0, MAX_TRANSCRIPT_CHARS);
    return this.usage ? { text, usage: this.usage } : { text };
  }
}
