// Reading tool-server answers within bounds: a size cap and a body timeout for whole bodies, event by event for streams.
import type { Readable } from 'node:stream';
import { Errors } from '../errors/error-registry.js';
import { createSseParser, formatSse, type ParsedSseEvent } from '../http/sse-parser.js';

/** Limits on what the MCP proxy reads from a tool server. */
export interface McpProxyLimits {
  /** How long a tool server may take to send a whole JSON answer after its headers, or stay silent inside a POST's event stream, in ms. Default 30000. */
  bodyTimeoutMs?: number;
  /** Largest JSON answer, and largest single event of a stream, the proxy accepts from a tool server, in bytes. Default 10 MiB. */
  maxResponseBytes?: number;
  /**
   * How long a tool server's listing of a tool stays good for calls of that tool, in ms. A `tools/call` of a tool
   * last seen listed longer ago lists the tool server's tools first, so a tool changed since it was approved is refused
   * within this time even when clients never list tools again. Default 60000; 0 lists before every call.
   */
  toolListMaxAgeMs?: number;
}

/** Default of {@link McpProxyLimits.bodyTimeoutMs}. */
export const DEFAULT_MCP_BODY_TIMEOUT_MS = 30_000;
/** Default of {@link McpProxyLimits.toolListMaxAgeMs}: 60 s. */
export const DEFAULT_TOOL_LIST_MAX_AGE_MS = 60_000;
/** Default of {@link McpProxyLimits.maxResponseBytes}. */
export const DEFAULT_MCP_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * `mcp.toolListMaxAgeMs` with its default filled. Throws `config_invalid` for a value that is not a finite number of
 * 0 or more.
 * @example
 * resolveToolListMaxAge({}); // 60000
 */
export function resolveToolListMaxAge(limits: McpProxyLimits = {}): number {
  const value = limits.toolListMaxAgeMs;
  if (value === undefined) return DEFAULT_TOOL_LIST_MAX_AGE_MS;
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0)) throw Errors.configInvalid(['mcp.toolListMaxAgeMs must be a number of 0 or more']);
  return value;
}

/**
 * The limits with their defaults filled. Throws `config_invalid` for a limit that is not a positive number.
 * @example
 * resolveLimits({ bodyTimeoutMs: 5000 }); // { timeoutMs: 5000, maxBytes: 10485760 }
 */
export function resolveLimits(limits: McpProxyLimits = {}): { timeoutMs: number; maxBytes: number } {
  for (const [name, value] of Object.entries({ bodyTimeoutMs: limits.bodyTimeoutMs, maxResponseBytes: limits.maxResponseBytes })) {
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) throw Errors.configInvalid([`mcp.${name} must be a positive number`]);
  }
  return { timeoutMs: limits.bodyTimeoutMs ?? DEFAULT_MCP_BODY_TIMEOUT_MS, maxBytes: limits.maxResponseBytes ?? DEFAULT_MCP_MAX_RESPONSE_BYTES };
}

/** Why a tool-server body was not read to its end. */
export class UpstreamBodyError extends Error {
  constructor(
    readonly kind: 'timeout' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'UpstreamBodyError';
  }
}

/** A body stream with a watchdog: destroyed when `timeoutMs` pass without `touch()`. */
export class BodyWatchdog {
  timedOut = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly body: Readable,
    private readonly timeoutMs: number,
  ) {
    this.touch();
  }

  /** Restarts the countdown. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.body.destroy(new UpstreamBodyError('timeout', `no data for ${this.timeoutMs} ms`));
    }, this.timeoutMs);
    this.timer.unref();
  }

  /** Stops the countdown. */
  clear(): void {
    clearTimeout(this.timer);
  }
}

/**
 * Reads a whole body, at most `maxBytes` and within `timeoutMs`. A declared Content-Length over the cap is refused
 * before reading; a body that grows past it is cut at once, never buffered whole.
 * @throws UpstreamBodyError on timeout or when too large; the stream's own error when it breaks.
 * @example
 * const text = (await readBoundedBody(upstream.body, upstream.headers, { maxBytes: 10 << 20, timeoutMs: 30_000 })).toString('utf8');
 */
export async function readBoundedBody(
  body: Readable,
  headers: Record<string, string | string[] | undefined>,
  limits: { maxBytes: number; timeoutMs: number },
): Promise<Buffer> {
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    body.destroy();
    throw new UpstreamBodyError('too_large', `${declared} bytes declared`);
  }
  const watchdog = new BodyWatchdog(body, limits.timeoutMs);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limits.maxBytes) {
        body.destroy();
        throw new UpstreamBodyError('too_large', `more than ${limits.maxBytes} bytes`);
      }
      chunks.push(chunk);
    }
  } catch (error) {
    if (watchdog.timedOut) throw new UpstreamBodyError('timeout', `no complete answer within ${limits.timeoutMs} ms`);
    throw error;
  } finally {
    watchdog.clear();
  }
  return Buffer.concat(chunks, size);
}

/** One server-sent event in wire form, with its id when the stream set one. */
export function formatSseEvent(event: ParsedSseEvent, data: string): string {
  return `${event.id === undefined ? '' : `id: ${event.id}\n`}${formatSse(data, event.event)}`;
}

/**
 * Reads an event stream event by event (each at most `maxEventBytes`), handing each event to `onEvent` in order.
 * With `idleTimeoutMs`, a stream silent for that long is cut with an {@link UpstreamBodyError}.
 * @example
 * await forEachSseEvent(body, { maxEventBytes: 10 << 20, idleTimeoutMs: 30_000 }, async (event) => relay(event.data));
 */
export async function forEachSseEvent(
  body: Readable,
  options: { maxEventBytes: number; idleTimeoutMs?: number },
  onEvent: (event: ParsedSseEvent) => Promise<void>,
): Promise<void> {
  const events: ParsedSseEvent[] = [];
  const parser = createSseParser((event) => events.push(event), { maxEventLength: options.maxEventBytes });
  const watchdog = options.idleTimeoutMs === undefined ? undefined : new BodyWatchdog(body, options.idleTimeoutMs);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      watchdog?.clear(); // the countdown measures the tool server's silence, not our own work on the event
      parser.push(chunk);
      for (const event of events.splice(0)) await onEvent(event);
      watchdog?.touch();
    }
    parser.end();
    for (const event of events.splice(0)) await onEvent(event);
  } catch (error) {
    if (watchdog?.timedOut) throw new UpstreamBodyError('timeout', `no data for ${options.idleTimeoutMs} ms`);
    throw error;
  } finally {
    watchdog?.clear();
  }
}
