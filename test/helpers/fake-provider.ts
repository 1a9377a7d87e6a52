// A loopback fake LLM provider for tests: speaks OpenAI, Anthropic and Gemini, records requests, and fails on demand.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  errorBody, jsonAnswer, streamAnswer, type AnswerSpec, type FakeEndpoint, type FakePromptCache, type FakeToolCall, type WireFormat,
} from './fake-provider-formats.js';

export type { FakeEndpoint, FakePromptCache, FakeToolCall, WireFormat } from './fake-provider-formats.js';
export { FAKE_CREATED, FAKE_USAGE, fakeVector } from './fake-provider-formats.js';

/** One request the fake received. */
export interface FakeRequest {
  method: string;
  /** Path and query, as sent. */
  url: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when it was not JSON. */
  body: unknown;
  rawBody: string;
  /** Recognised from the path; undefined for an unknown path (answered 404). */
  format?: WireFormat;
  endpoint?: FakeEndpoint;
  /** From the body, the Azure deployment path or the Gemini model path. */
  model?: string;
  stream: boolean;
}

/** How to answer one request. Every member is optional: `{}` is a normal answer. */
export interface FakeAnswer {
  /** The answer text; default `Hello from the fake provider.` */
  text?: string;
  /** Answer with this tool call instead of text. */
  toolCall?: FakeToolCall;
  /** Fail with this status; `body` replaces the format's error body; `retryAfter` sets `Retry-After`. */
  fail?: { status: number; message?: string; body?: unknown; retryAfter?: number | string; headers?: Record<string, string> };
  /** Wait this long before sending headers (or before the reset). */
  delayMs?: number;
  /** Answer only once this promise settles (the request is recorded at once): lets a test hold an answer and release it. */
  hold?: Promise<unknown>;
  /** Destroy the socket instead of answering. */
  reset?: boolean;
  /** Streams: split the text (or tool arguments) into this many content chunks; default 3. */
  chunks?: number;
  /** Streams: wait this long before each content chunk. */
  chunkDelayMs?: number;
  /** Streams: destroy the socket after this many content chunks, before the closing events (the preamble is always sent). */
  failAfterChunks?: number;
  /** Anthropic answers: report these prompt-cache reads and writes beside `input_tokens` (in a stream's `message_start`). */
  promptCache?: FakePromptCache;
}

/** A function consulted first for every request; undefined falls through to the queue, models, default. */
export type FakeScript = (request: FakeRequest) => FakeAnswer | undefined;

/** A running fake provider. */
export interface FakeProvider {
  /** `http://127.0.0.1:<port>`, to use as a provider's `config.api_base`. */
  url: string;
  /** Every request received, oldest first. */
  requests: FakeRequest[];
  /** A function: consulted first. An array: one-shot answers, in order. An object: the default answer. */
  script(plan: FakeScript | FakeAnswer[] | FakeAnswer): void;
  /** The answer for requests naming `model` (after the function and the queue). */
  forModel(model: string, answer: FakeAnswer): void;
  /** How many streamed answers are still open (neither finished nor closed by the client). */
  openStreams(): number;
  /** How many streamed answers closed before their end (their client left, or `failAfterChunks` cut them). */
  cutStreams(): number;
  /** Resolves once no streamed answer is open: the event to wait for instead of a guessed sleep. */
  streamsClosed(): Promise<void>;
  /** Forgets requests, every script and the count of cut streams. */
  reset(): void;
  close(): Promise<void>;
}

export const FAKE_TEXT = 'Hello from the fake provider.';

function classify(path: string, body: unknown): Pick<FakeRequest, 'format' | 'endpoint' | 'model' | 'stream'> {
  const record = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const gemini = /\/models\/([^/:]+):(generateContent|streamGenerateContent|batchEmbedContents)$/.exec(path);
  if (gemini) {
    const endpoint = gemini[2] === 'batchEmbedContents' ? 'embeddings' : 'chat';
    return { format: 'gemini', endpoint, model: decodeURIComponent(gemini[1] as string), stream: gemini[2] === 'streamGenerateContent' };
  }
  const model = typeof record.model === 'string' ? record.model : /\/deployments\/([^/]+)\//.exec(path)?.[1];
  const stream = record.stream === true;
  if (path.endsWith('/messages')) return { format: 'anthropic', endpoint: 'chat', model, stream };
  if (path.endsWith('/chat/completions')) return { format: 'openai', endpoint: 'chat', model, stream };
  if (path.endsWith('/completions')) return { format: 'openai', endpoint: 'completions', model, stream };
  if (path.endsWith('/embeddings')) return { format: 'openai', endpoint: 'embeddings', model, stream: false };
  return { model, stream };
}

function answerSpec(request: FakeRequest, answer: FakeAnswer): AnswerSpec {
  const body = (typeof request.body === 'object' && request.body !== null ? request.body : {}) as Record<string, unknown>;
  const options = body.stream_options as { include_usage?: boolean } | undefined;
  const inputs = Array.isArray(body.requests) ? body.requests.length : Array.isArray(body.input) ? body.input.length : 1;
  const firstRequest = Array.isArray(body.requests) ? (body.requests[0] as Record<string, unknown>) : undefined;
  const dimensions = Number(body.dimensions ?? firstRequest?.outputDimensionality ?? 3);
  return {
    format: request.format ?? 'openai', endpoint: request.endpoint ?? 'chat', model: request.model ?? 'fake-model',
    text: answer.text ?? FAKE_TEXT, toolCall: answer.toolCall, chunks: answer.chunks ?? 3,
    includeUsage: options?.include_usage === true, inputs, dimensions, promptCache: answer.promptCache,
  };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * Starts a fake provider on a random loopback port.
 * @example
 * const fake = await startFakeProvider();
 * fake.script([{ fail: { status: 429, retryAfter: 1 } }, { text: 'second try' }]);
 * // … point a provider's config.api_base at fake.url …
 * assert.equal(fake.requests.length, 2);
 * await fake.close();
 */
export async function startFakeProvider(): Promise<FakeProvider> {
  const requests: FakeRequest[] = [];
  let scripter: FakeScript | undefined;
  let queue: FakeAnswer[] = [];
  let byModel = new Map<string, FakeAnswer>();
  let fallback: FakeAnswer = {};
  let openStreams = 0;
  let cutStreams = 0;
  /** Waiters of `streamsClosed()`, resolved when the last open stream closes. */
  const closedWaiters: Array<() => void> = [];
  const timers = new Set<NodeJS.Timeout>();
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      if (ms <= 0) return resolve();
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });
  const write = (res: ServerResponse, text: string): Promise<void> => new Promise((resolve) => res.write(text, () => resolve()));

  function choose(request: FakeRequest): FakeAnswer {
    return scripter?.(request) ?? queue.shift() ?? (request.model ? byModel.get(request.model) : undefined) ?? fallback;
  }

  async function stream(res: ServerResponse, spec: AnswerSpec, answer: FakeAnswer): Promise<void> {
    const plan = streamAnswer(spec);
    openStreams += 1;
    res.once('close', () => {
      openStreams -= 1;
      if (!res.writableFinished) cutStreams += 1;
      if (openStreams === 0) for (const resolve of closedWaiters.splice(0)) resolve();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (const frame of plan.head) await write(res, frame);
    for (const [index, frame] of plan.pieces.entries()) {
      if (answer.failAfterChunks !== undefined && index >= answer.failAfterChunks) {
        res.socket?.destroy();
        return;
      }
      await sleep(answer.chunkDelayMs ?? 0);
      if (res.destroyed) return;
      await write(res, frame);
    }
    if (answer.failAfterChunks !== undefined) {
      res.socket?.destroy();
      return;
    }
    for (const frame of plan.tail) await write(res, frame);
    res.end();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = rawBody ? JSON.parse(rawBody) : undefined;
    } catch {
      body = undefined;
    }
    const parsed = new URL(req.url ?? '/', 'http://fake');
    const request: FakeRequest = {
      method: req.method ?? 'GET', url: req.url ?? '/', path: parsed.pathname, query: Object.fromEntries(parsed.searchParams),
      headers: req.headers, body, rawBody, ...classify(parsed.pathname, body),
    };
    requests.push(request);
    const answer = choose(request);
    await sleep(answer.delayMs ?? 0);
    if (answer.hold) {
      await answer.hold.catch(() => undefined);
      if (res.destroyed) return;
    }
    if (answer.reset) {
      req.socket.destroy();
      return;
    }
    const format = request.format ?? 'openai';
    if (!request.format) return sendJson(res, 404, errorBody(format, 404, `Unknown path ${request.path}`));
    if (rawBody && body === undefined) return sendJson(res, 400, errorBody(format, 400, 'The body is not valid JSON.'));
    if (answer.fail) {
      const { status, retryAfter, headers = {} } = answer.fail;
      const extra = retryAfter === undefined ? headers : { ...headers, 'retry-after': String(retryAfter) };
      return sendJson(res, status, answer.fail.body ?? errorBody(format, status, answer.fail.message ?? `Fake failure ${status}`), extra);
    }
    const spec = answerSpec(request, answer);
    if (request.stream) return stream(res, spec, answer);
    sendJson(res, 200, jsonAnswer(spec));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody('openai', 500, String(error)));
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(plan) {
      if (typeof plan === 'function') scripter = plan;
      else if (Array.isArray(plan)) queue.push(...plan);
      else fallback = plan;
    },
    forModel(model, answer) {
      byModel.set(model, answer);
    },
    openStreams: () => openStreams,
    cutStreams: () => cutStreams,
    streamsClosed: () => (openStreams === 0 ? Promise.resolve() : new Promise<void>((resolve) => closedWaiters.push(resolve))),
    reset() {
      requests.length = 0;
      cutStreams = 0;
      scripter = undefined;
      queue = [];
      byModel = new Map();
      fallback = {};
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
