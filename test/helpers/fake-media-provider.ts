// A loopback fake of OpenAI's moderations, image, speech and transcription endpoints (OpenAI and Azure paths), recording what it received.
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import busboy from 'busboy';

/** One request the fake received. */
export interface MediaRequest {
  path: string;
  headers: IncomingHttpHeaders;
  /** JSON bodies parsed; multipart fields as strings (repeated names as arrays). */
  body: Record<string, unknown>;
  /** The uploaded file, for multipart bodies. */
  file?: { filename: string; mimeType: string; bytes: number; sha256: string };
}

/** A running fake. */
export interface FakeMediaProvider {
  url: string;
  requests: MediaRequest[];
  /** The audio bytes the speech endpoint answers. */
  audio: Buffer;
  /** Statuses to fail the next requests with, in order. */
  failNext(...statuses: number[]): void;
  close(): Promise<void>;
}

async function readMultipart(req: IncomingMessage): Promise<Pick<MediaRequest, 'body' | 'file'>> {
  const body: Record<string, unknown> = {};
  let file: MediaRequest['file'];
  await new Promise<void>((resolve, reject) => {
    const parser = busboy({ headers: req.headers });
    parser.on('field', (name, value) => {
      const previous = Object.hasOwn(body, name) ? body[name] : undefined;
      body[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    });
    parser.on('file', (_name, stream, info) => {
      const hash = createHash('sha256');
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        bytes += chunk.length;
      });
      stream.on('end', () => (file = { filename: info.filename ?? '', mimeType: info.mimeType, bytes, sha256: hash.digest('hex') }));
    });
    parser.on('close', resolve);
    parser.on('error', reject);
    req.pipe(parser);
  });
  return { body, file };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Starts the fake on a random loopback port; `audioBytes` sets the size of the speech answer (default 256 KB). */
export async function startFakeMediaProvider(audioBytes = 256 * 1024): Promise<FakeMediaProvider> {
  const requests: MediaRequest[] = [];
  const failures: number[] = [];
  const audio = Buffer.alloc(audioBytes, 0);
  for (let i = 0; i < audio.length; i++) audio[i] = (i * 31 + 7) % 251;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const multipart = (req.headers['content-type'] ?? '').startsWith('multipart/form-data');
    (multipart ? readMultipart(req) : readJson(req).then((body) => ({ body, file: undefined })))
      .then(({ body, file }) => {
        requests.push({ path, headers: req.headers, body, file });
        const fail = failures.shift();
        if (fail) return json(res, fail, { error: { message: `Fake failure ${fail}`, type: 'server_error', code: null, param: null } });
        if (path.endsWith('/moderations')) {
          return json(res, 200, { id: 'modr-1', model: body.model, results: [{ flagged: false, categories: { violence: false }, category_scores: { violence: 0.01 } }] });
        }
        if (path.endsWith('/images/generations')) return json(res, 200, { created: 1_700_000_000, data: [{ b64_json: Buffer.from('fake-png').toString('base64') }], usage: { input_tokens: 7, output_tokens: 100, total_tokens: 107 } });
        if (path.endsWith('/audio/speech')) {
          res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': audio.length });
          return res.end(audio);
        }
        if (path.endsWith('/audio/transcriptions')) {
          if (body.stream === 'true') {
            // OpenAI's transcription stream: text deltas, then the whole text with usage.
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            res.write(`data: ${JSON.stringify({ type: 'transcript.text.delta', delta: 'heard ' })}\n\n`);
            return res.end(`data: ${JSON.stringify({ type: 'transcript.text.done', text: `heard ${file?.bytes ?? 0} bytes`, usage: { type: 'tokens', input_tokens: 5, output_tokens: 3, total_tokens: 8 } })}\n\n`);
          }
          if (body.response_format === 'text') {
            res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
            return res.end(`heard ${file?.bytes ?? 0} bytes\n`);
          }
          return json(res, 200, { text: `heard ${file?.bytes ?? 0} bytes`, usage: { type: 'duration', seconds: 3 } });
        }
        json(res, 404, { error: { message: `Unknown path ${path}`, type: 'invalid_request_error', code: null, param: null } });
      })
      .catch((error: unknown) => json(res, 400, { error: { message: String(error) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    audio,
    failNext: (...statuses) => failures.push(...statuses),
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
