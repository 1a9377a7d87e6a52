// Sends requests to providers over undici keep-alive pools, with per-attempt timeouts and client-abort propagation.
import { Readable } from 'node:stream';
import { Agent, type Dispatcher } from 'undici';
import { Errors } from '../errors/error-registry.js';
import type { UpstreamRequest } from '../plugins/plugin-types.js';
import type { UpstreamSignal } from './attempt-timer.js';

/** Options of the upstream client. */
export interface UpstreamClientOptions {
  /** Sockets kept per upstream origin. Default 256. */
  connectionsPerOrigin?: number;
  /** How long an idle keep-alive socket is kept, in ms. Default 30 s. */
  keepAliveTimeoutMs?: number;
  /**
   * The most of a whole (non-streamed) answer read from a provider, in bytes. Default 64 MiB. A larger answer is a
   * 502 `upstream_invalid_response` (retried and falling back as one) instead of being held in memory whole.
   */
  maxAnswerBytes?: number;
  /**
   * The most of a streamed answer read from a provider, in bytes. Default 256 MiB. Past it the stream is cut with an
   * error event (`upstream_stream_error`): a stream's events are kept for the request log and the cache while it flows.
   */
  maxStreamBytes?: number;
}

/** Default of {@link UpstreamClientOptions.maxAnswerBytes}. */
export const DEFAULT_MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Default of {@link UpstreamClientOptions.maxStreamBytes}. */
export const DEFAULT_MAX_STREAM_BYTES = 256 * 1024 * 1024;

/** A response whose headers arrived; the body is still streaming. */
export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  /** The most of this answer read whole, in bytes (see {@link UpstreamClientOptions.maxAnswerBytes}). */
  maxAnswerBytes: number;
  /** The most of this answer read as a stream, in bytes (see {@link UpstreamClientOptions.maxStreamBytes}). */
  maxStreamBytes: number;
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

/** An upstream URL as the pool sees it: the origin that picks the pool, and the path with its query. */
interface UpstreamTarget {
  origin: string;
  path: string;
}

/** How many distinct upstream URLs keep their parsed form (they come from admin configuration and model names). */
const PARSED_URLS_KEPT = 1024;

/** The keep-alive client every upstream request goes through. */
export class UpstreamClient {
  private readonly agent: Agent;
  /** Parsed upstream URLs: undici's `request(url)` would build a URL object for every request. */
  private readonly targets = new Map<string, UpstreamTarget>();
  private readonly maxAnswerBytes: number;
  private readonly maxStreamBytes: number;

  /** Throws `config_invalid` for a `maxAnswerBytes` or `maxStreamBytes` that is not a positive integer. */
  constructor(options: UpstreamClientOptions = {}) {
    this.maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
    this.maxStreamBytes = options.maxStreamBytes ?? DEFAULT_MAX_STREAM_BYTES;
    for (const [name, value] of [['maxAnswerBytes', this.maxAnswerBytes], ['maxStreamBytes', this.maxStreamBytes]] as const) {
      if (!Number.isSafeInteger(value) || value < 1) throw Errors.configInvalid([`upstream.${name} must be a positive integer`]);
    }
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
    const { origin, path } = this.targetOf(upstream.url);
    const response = await this.agent.request({ origin, path, method: upstream.method as Dispatcher.HttpMethod, headers, body, signal: signal as AbortSignal });
    return { status: response.statusCode, headers: response.headers, body: response.body, maxAnswerBytes: this.maxAnswerBytes, maxStreamBytes: this.maxStreamBytes };
  }

  /** The origin and path of an upstream URL, parsed once (as undici's `request(url)` does) and kept, within a bound. */
  private targetOf(url: string): UpstreamTarget {
    let target = this.targets.get(url);
    if (target === undefined) {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new TypeError('Invalid URL protocol: the URL must start with `http:` or `https:`.');
      target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
      if (this.targets.size >= PARSED_URLS_KEPT) this.targets.clear();
      this.targets.set(url, target);
    }
    return target;
  }

  /** Closes every pooled connection. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
