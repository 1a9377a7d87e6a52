// One Chronicles (request log) entry: what a request asked, what it got, which checks ran, built after the answer is sent.
import type { Request, Response } from 'express';
import { callerOf, DEVELOPER_KEY_HEADER } from '../auth/caller-identity.js';
import type { GatewayError } from '../errors/error-registry.js';
import { answerText, chunkText } from '../guardrails/pipeline/message-text.js';
import type { ChronicleEntry, GuardrailCheck, McpExchange, ToolInvocation } from '../records/request-records.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';
import { clientLeft } from '../traffic/client-left.js';
import { traceIdOf } from '../observability/gateway-tracing.js';
import { requestIdOf } from '../observability/request-id.js';
import { scrubSecretShapes } from '../secrets/secret-shapes.js';
import { MAX_MODEL_NAME_LENGTH } from '../traffic/model-endpoints.js';
import { answerUsage, streamUsage } from '../usage/usage-extractor.js';
import { unreportedUsage } from '../usage/usage-estimate.js';
import { isoTimestamp } from './iso-timestamp.js';

export type { ChronicleEntry, McpExchange, ToolInvocation } from '../records/request-records.js';

/** The output text and usage of a relayed answer, parsed after it was sent (`left`: the client left before its end). */
function outputOf(context: ModelRequestContext | undefined, left: boolean): { output: string | null; usage: Record<string, unknown> | null } {
  const relay = context?.relay;
  const cut = relay?.cutAfterChars;
  if (!relay) return { output: null, usage: null };
  // A JSON answer an output check withheld keeps no text, but its usage: the provider was paid for it.
  if (relay.rejected && cut === undefined) return { output: null, usage: relay.withheldUsage ?? null };
  if (relay.payloads) {
    // Under an output transform (DLP mask, redact, replace) the payloads are the transformed ones the client got.
    const text = relay.payloads.map(chunkText).join('');
    // A stream that ended before the provider's usage chunk (the client left, it broke, a check cut it) is still paid
    // for: its usage is estimated from the prompt and the text the provider sent.
    const usage = streamUsage(relay.payloads) ?? (context ? unreportedUsage(context, left, text.length) : null);
    return { output: cut === undefined ? text : text.slice(0, cut), usage };
  }
  if (!relay.bytes && !relay.answer) return { output: null, usage: null };
  try {
    const answer = relay.answer ?? (JSON.parse(relay.bytes!.toString('utf8')) as Record<string, unknown>);
    // A transcription's text is its answer's `text` (JSON, or read from its stream's events).
    const text = context?.endpoint === 'transcriptions' && typeof answer.text === 'string' ? answer.text : answerText(answer);
    return { output: text === '' && context?.endpoint === 'embeddings' ? null : text, usage: answerUsage(answer) };
  } catch {
    return { output: null, usage: null };
  }
}

/**
 * The input as recorded: the messages, prompt or input as sent to the provider (after DLP transforms). A speech request
 * with `instructions` (the voice directions its model reads too) is recorded as `{input, instructions}`.
 */
function inputOf(context: ModelRequestContext | undefined, req: Request): unknown {
  const body = (context?.body ?? req.body) as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') return null;
  if (context?.endpoint === 'speech' && typeof body.instructions === 'string' && body.instructions !== '') return { input: body.input ?? null, instructions: body.instructions };
  return body.messages ?? body.prompt ?? body.input ?? null;
}

/**
 * A name a caller sent that the request did not validate (the `X-Gateway-Route` header, the body's `model` of a
 * request refused before any attempt): key-shaped text and URL credentials removed, control characters dropped, cut
 * to a model name's length (512). Null when it is not a string.
 */
function callerName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  return scrubSecretShapes(value).replace(/[\u0000-\u001f\u007f]/g, '').slice(0, MAX_MODEL_NAME_LENGTH);
}

/**
 * The credentials a request carried (developer key, Bearer), which must never reach the log. The recorder scrubs
 * them, with every stored provider key and registry token, from every field of the entry.
 */
export function requestSecrets(req: Request): string[] {
  return [req.headers[DEVELOPER_KEY_HEADER], /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1]].filter(
    (value): value is string => typeof value === 'string' && value.length >= 8,
  );
}

/** Builds the entry of a finished model request, or undefined when it had no valid developer key. Secrets are scrubbed by the recorder. */
export function buildModelEntry(req: Request, res: Response, context: ModelRequestContext | undefined, startedAt: number, newId: () => string): ChronicleEntry | undefined {
  const caller = callerOf(req);
  if (caller?.kind !== 'application') return undefined;
  const last = context?.attempts.at(-1);
  const error = (res.locals.gatewayError as GatewayError | undefined) ?? context?.relay?.rejected;
  const streamError = context?.relay?.streamError;
  const left = clientLeft(res, context);
  const entry: ChronicleEntry = {
    id: context?.id ?? newId(),
    timestamp: isoTimestamp(startedAt),
    application: caller.application,
    kind: 'model',
    endpoint: req.path,
    // Names the request resolved to, else the caller's own as sent (scrubbed and bounded here: see callerName).
    route: context?.routeName ?? callerName(req.headers['x-gateway-route']),
    provider: last?.provider ?? null,
    model: last?.model ?? callerName((req.body as { model?: unknown } | undefined)?.model),
    // A client that left before the answer ended (even mid-stream, after a 200 was sent) is recorded as 499.
    status: left ? 499 : res.statusCode,
    latency_ms: Date.now() - startedAt,
    stream: context?.stream ?? false,
    attempts: context?.attempts ?? [],
    input: inputOf(context, req),
    output: null,
    usage: null,
    guardrail_checks: context?.checks ?? [],
    tool_invocations: context?.exchange?.tool_invocations ?? [],
    error: error
      ? { code: error.code, message: error.message, type: error.type }
      : streamError
        ? { code: 'stream_error', message: streamError, type: 'upstream_error' }
        : left
          ? { code: 'client_disconnected', message: 'The client disconnected before the answer ended.', type: 'client_error' }
          : null,
  };
  // Optional fields are set only when present (assigned rather than spread: this runs for every request).
  if (context?.exchange) {
    entry.output = context.exchange.output;
    entry.usage = context.exchange.usage;
    entry.rounds = context.exchange.rounds;
  } else {
    const { output, usage } = outputOf(context, left);
    entry.output = output;
    // A client that left while a provider was answering is billed for its prompt (see unreportedUsage).
    entry.usage = usage ?? (context ? unreportedUsage(context, left) : null);
  }
  if (context?.relay?.rejected && context.relay.cutAfterChars !== undefined) entry.stream_cut = { after_chars: context.relay.cutAfterChars, code: context.relay.rejected.code };
  const requestId = requestIdOf(req);
  if (requestId) entry.request_id = requestId;
  const traceId = traceIdOf(req);
  if (traceId) entry.trace_id = traceId;
  if (context?.cache) entry.cache = context.cache;
  return entry;
}

/** What every entry of a registry exchange (a tool call, or another MCP request) is built from. */
interface RegistryExchange {
  id: string;
  application: string;
  registry: string;
  endpoint: string;
  startedAt: number;
  status: number;
  error?: { code: string; message: string; type: string };
}

/** The fields a registry exchange's entry shares with every other such entry (no route, model, usage or attempts). */
function registryEntryBase(options: RegistryExchange, kind: 'tool' | 'mcp', latencyMs: number) {
  return {
    id: options.id,
    timestamp: new Date(options.startedAt).toISOString(),
    application: options.application,
    kind,
    endpoint: options.endpoint,
    route: null,
    provider: options.registry,
    model: null,
    status: options.status,
    latency_ms: latencyMs,
    stream: false,
    attempts: [],
    usage: null,
    error: options.error ?? null,
  } satisfies Partial<ChronicleEntry>;
}

/** Builds the entry of one tool call made through a registry with a developer key. */
export function buildToolEntry(options: RegistryExchange & { invocation: ToolInvocation }): ChronicleEntry {
  const { invocation } = options;
  return {
    ...registryEntryBase(options, 'tool', invocation.latency_ms),
    input: invocation.arguments ?? null,
    output: typeof invocation.result === 'string' ? invocation.result : invocation.result === undefined ? null : JSON.stringify(invocation.result),
    guardrail_checks: invocation.guardrail_checks,
    tool_invocations: [invocation],
  };
}

/**
 * Builds the entry of an MCP exchange other than a tool call (kind `mcp`): `input` is the request's params, `output`
 * the text the client was handed (after DLP redaction), and `error` the block or the tool server's error. It feeds no
 * usage graph (no tool invocations). Secrets are scrubbed and fields bounded by the recorder, as for tool calls.
 */
export function buildMcpEntry(options: RegistryExchange & {
  exchange: McpExchange;
  params: unknown;
  output?: string;
  checks: GuardrailCheck[];
}): ChronicleEntry {
  return {
    ...registryEntryBase(options, 'mcp', Date.now() - options.startedAt),
    input: options.params ?? null,
    output: options.output ?? null,
    guardrail_checks: options.checks,
    tool_invocations: [],
    mcp: options.exchange,
  };
}
