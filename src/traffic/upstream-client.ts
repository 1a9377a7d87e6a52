// Sends requests to providers over undici keep-alive pools, with per-attempt timeouts and client-abort propagation.
import { Readable } from 'node:stream';
import { Agent, request, type Dispatcher } from 'undici';
import type { UpstreamRequest } from '../plugins/plugin-types.js';
import type { UpstreamSignal } from './attempt-timer.js';

/** Options of the upstream client. */
export interface UpstreamClientOptions {
  /** Sockets kept per upstream origin. Default 256. */
  connectionsPerOrigin?: number;
  /** How long an idle keep-alive socket is kept, in ms. Default 30 s. */
  keepAliveTimeoutMs?: number;
}

/** A response whose headers arrived; the body is still streaming. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
}

/** How an attempt failed before a response arrived. */
export type UpstreamFailureKind = 'timeout' | 'network' | 'aborted';

/** Classifies an undici or socket error. */
export function classifyUpstreamError(error: unknown, clientAborted: boolean, timedOut: boolean): UpstreamFailureKind {
  if (clientAborted) return 'aborted';
  if (timedOut) return 'timeout';
  const code = (error as { code?: string } | null)?.code ?? '';
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return 'timeout';
  return 'network';
}

/** A form as a multipart/form-data stream with its boundary header; files are read from their source as the stream is sent. */
function encodeForm(headers: Record<string, string>, form: FormData): { headers: Record<string, string>; body: Readable } {
  const encoded = new Response(form);
  return { headers: { ...headers, 'content-type': encoded.headers.get('content-type')! }, body: Readable.fromWeb(encoded.body! as import('node:stream/web').ReadableStream) };
}

/** The keep-alive client every upstream request goes through. */
export class UpstreamClient {
  private readonly agent: Agent;

  constructor(options: UpstreamClientOptions = {}) {
    this.agent = new Agent({
      connections: options.connectionsPerOrigin ?? 256,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      pipelining: 1,
    });
  }

  /**
   * Sends one request. Resolves when the response headers arrive. Timeouts are the caller's, through
   * `signal` (see AttemptTimer): undici's own timers tick too coarsely for sub-second limits.
   */
  async send(upstream: UpstreamRequest, signal: AbortSignal | UpstreamSignal): Promise<UpstreamResponse> {
    const { headers, body } = typeof upstream.body === 'string' ? { headers: upstream.headers, body: upstream.body } : encodeForm(upstream.headers, upstream.body);
    const response = await request(upstream.url, {
      method: upstream.method,
      headers,
      body,
      signal: signal as AbortSignal,
      dispatcher: this.agent,
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  }

  /** Closes every pooled connection. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
