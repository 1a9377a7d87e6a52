// Types of the plugin API: guardrail processors, provider adapters and storage adapters, with typed define helpers.
import type { StorageAdapter } from '../storage/storage-adapter.js';

/** The kinds of plugin the gateway knows. */
export type PluginKind = 'guardrail' | 'provider' | 'storage';

/** Metadata every plugin carries. */
export interface PluginMeta {
  /** Unique across all plugins; a guardrail's name is its processor identifier in URLs and policies. */
  name: string;
  kind: PluginKind;
  /** Names of plugins that must be registered first. */
  dependencies?: string[];
  /** One line saying what the plugin does. */
  description?: string;
}

/** A JSON Schema object; compiled once with ajv when the plugin is registered. */
export type JsonSchema = Record<string, unknown>;

// ---------------------------------------------------------------- guardrails

/** The text under evaluation, as the standalone endpoint receives it. */
export interface GuardrailInput {
  text: string;
  filename?: string;
}

/** What a guardrail can reach while it evaluates: other guardrails, for reuse. */
export interface GuardrailLookup {
  /**
   * Evaluates `text` with another registered guardrail. `options` are that guardrail's own options
   * (its schema defaults fill the rest); `threshold` overrides its default threshold.
   * Throws `not_found` when no such guardrail is registered.
   */
  evaluate(name: string, text: string, options?: { options?: Record<string, unknown>; threshold?: number }): Promise<GuardrailOutcome>;
}

/** The context of one evaluation. */
export interface GuardrailContext<Options> {
  /** The processor's options: schema defaults, then the policy's, then per-request `config`. */
  options: Options;
  /** The threshold in force: a score above it counts as a threat. */
  threshold: number;
  /** The whole input, including `filename` where given. */
  input: GuardrailInput;
  /** Other guardrails, for processors that reuse them (declare them in `dependencies`). */
  guardrails: GuardrailLookup;
  /** Aborted when the evaluation times out or the client leaves. */
  signal?: AbortSignal;
}

/** The outcome of one evaluation. */
export interface GuardrailOutcome<Results = unknown> {
  /** The processor's `results` object, exactly in its spec shape. */
  results: Results;
  /** True when a threat exceeds the threshold. `request_reject` is `flagged` in reject mode, false in inspect mode. */
  flagged: boolean;
  /** Categories or info types that exceeded the threshold, named in errors and logs. */
  triggered?: string[];
  /** The text after a transforming strategy (DLP mask, redact, replace), when it changed. */
  transformedText?: string;
  /**
   * Where `transformedText` differs from the text: each replaced span of the text (UTF-16 offsets, end exclusive, in
   * order, not overlapping) and what replaces it. Optional; with it, a streamed answer is transformed piece by piece
   * (the gateway releases text up to a span's start); without it, a stream text the processor changes is held to its end.
   */
  replacements?: TextReplacement[];
}

/** One replaced span of a text: `text.slice(start, end)` became `replacement`. */
export interface TextReplacement {
  start: number;
  end: number;
  replacement: string;
}

/** A guardrail processor plugin. */
export interface GuardrailPlugin<Options extends object = Record<string, unknown>, Results = unknown> extends PluginMeta {
  kind: 'guardrail';
  /** The threshold used when neither the policy nor the request sets one. */
  defaultThreshold: number;
  /** JSON Schema of the processor's own options (beyond `enabled` and `threshold`), with defaults. */
  optionsSchema?: JsonSchema;
  /** Builds patterns and models once, at registration. */
  setup?(): void | Promise<void>;
  /**
   * How plain text from model traffic (prompts, answers, tool results) is handed to this processor,
   * for processors whose input is not plain text (e.g. Base64 with a filename). Default: `{ text }`. On model traffic
   * `evaluate` then gets the plain text as its first argument and this form as `context.input`: a processor that
   * defines it reads `context.input`, which is also what the standalone endpoint hands it.
   */
  pipelineInput?(text: string): GuardrailInput;
  /**
   * Whether evaluations with these (resolved) options may answer a `transformedText`. The gateway transforms streamed
   * answers only with processors that answer true here; a processor without it is only checked on streams.
   */
  transformsText?(options: Options): boolean;
  /** Evaluates one text. Must not mutate shared state; may be called concurrently. */
  evaluate(text: string, context: GuardrailContext<Options>): GuardrailOutcome<Results> | Promise<GuardrailOutcome<Results>>;
}

/**
 * Declares a guardrail processor with full type checking of its options and results.
 * @example
 * export default defineGuardrail<{ words: string[] }, { matched: string[] }>({
 *   kind: 'guardrail', name: 'banned_words', defaultThreshold: 0.5,
 *   optionsSchema: { type: 'object', properties: { words: { type: 'array', items: { type: 'string' }, default: [] } } },
 *   evaluate(text, { options }) {
 *     const matched = options.words.filter((w) => text.includes(w));
 *     return { results: { matched }, flagged: matched.length > 0 };
 *   },
 * });
 */
export function defineGuardrail<Options extends object = Record<string, unknown>, Results = unknown>(
  plugin: Omit<GuardrailPlugin<Options, Results>, 'kind'> & { kind?: 'guardrail' },
): GuardrailPlugin<Options, Results> {
  return { ...plugin, kind: 'guardrail' };
}

// ---------------------------------------------------------------- providers

/**
 * The model endpoints the gateway serves: chat, completions and embeddings, and the pass-through ones, `moderations`,
 * `images` (generations), `speech` and `transcriptions` (audio), which adapters without them refuse with `unsupported_endpoint`.
 */
export type ModelEndpoint = 'chat' | 'completions' | 'embeddings' | 'moderations' | 'images' | 'speech' | 'transcriptions';

/** The provider record and credentials an adapter builds its request from. */
export interface ProviderRequestContext {
  endpoint: ModelEndpoint;
  /**
   * The client's body in OpenAI wire format, with `model` set to the upstream model name. For `transcriptions` it
   * holds the form's text fields and the audio under `file`, a `File` to send as multipart/form-data.
   */
  body: Record<string, unknown>;
  /** The upstream model name. */
  model: string;
  stream: boolean;
  provider: { name: string; type: string; config: Record<string, unknown> };
  /** The key to send, and where: a header (`header_key`) or a query parameter (`query_param_key`). */
  apiKey?: { value: string; headerKey?: string; queryParamKey?: string };
  /** The model's endpoint suffix, when the route sets one. */
  suffix?: string;
  /**
   * The API the client spoke, when not OpenAI's: `anthropic` for POST /v1/messages. Its body then carries Anthropic's
   * members in OpenAI form (`thinking`, `cache_control` on parts, tool messages and tools, an assistant message's
   * `thinking_blocks`): an adapter that passes the body through unchanged leaves them out (or maps them), as an
   * OpenAI-format server would refuse them; members an OpenAI-format client sent itself pass as they came.
   */
  clientFormat?: 'anthropic';
  /**
   * The betas an Anthropic client asked for in its `anthropic-beta` header (POST /v1/messages), each already checked
   * to be a short lowercase token. Untrusted: an adapter that speaks Anthropic's API sends only those its provider
   * allows; every other adapter ignores them.
   */
  clientBetas?: string[];
}

/** The HTTP request an adapter asks the gateway to send. */
export interface UpstreamRequest {
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  /** JSON text, or a form (multipart/form-data, with its boundary set by the client: leave `content-type` out). */
  body: string | FormData;
}

/** One server-sent event as parsed from an upstream stream. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Turns upstream stream events into OpenAI `chat.completion.chunk` payloads (JSON strings).
 *
 * The gateway writes every returned payload to the client verbatim as `data: <payload>\n\n`.
 * The translator owns the terminator: `onEnd` returns `'[DONE]'` as its last payload, so the
 * gateway never adds one for translated streams (compatible adapters pass the upstream's own `[DONE]`).
 *
 * Both methods may throw a coded `GatewayError`: `upstream_stream_error` (502) when the upstream
 * reports an error inside the stream (Anthropic's `error` event, Gemini's `{"error": …}` chunk) or
 * ends before its final event; `upstream_invalid_response` (502) when an event is not valid JSON.
 * Headers are sent by then, so the gateway forwards it as a last `event: error` frame carrying the
 * error body, and closes the stream without `[DONE]`.
 */
export interface StreamTranslator {
  /** Called per upstream event; answers zero or more OpenAI `data:` payloads. */
  onEvent(event: SseEvent): string[];
  /** Called when the upstream stream ends cleanly; answers the last payloads, ending with `'[DONE]'`. */
  onEnd(): string[];
}

/** A provider adapter plugin. */
export interface ProviderPlugin extends PluginMeta {
  kind: 'provider';
  /** True when the upstream speaks OpenAI's wire format, so answers and streams pass unchanged. */
  openaiCompatible: boolean;
  /**
   * Builds the upstream request from the OpenAI-format body. Throws coded errors before anything is
   * sent: `unsupported_endpoint` (400) for an endpoint the provider lacks, `invalid_value` (400) for a
   * body it cannot translate, `provider_misconfigured` (500) for a provider record missing what it needs.
   */
  buildRequest(context: ProviderRequestContext): UpstreamRequest;
  /**
   * Translates a successful upstream JSON answer into OpenAI's format. Omitted when compatible.
   * Throws `upstream_invalid_response` (502) when the answer does not have the provider's shape.
   */
  translateResponse?(upstream: unknown, context: ProviderRequestContext): Record<string, unknown>;
  /** Creates a translator for one streamed answer. Omitted when compatible. */
  createStreamTranslator?(context: ProviderRequestContext): StreamTranslator;
  /** Extracts a human-readable error message from an upstream error body. */
  errorMessage?(status: number, body: unknown): string | undefined;
  /**
   * How long the provider asks a client to wait before trying again, in ms, read from its error body (parsed JSON),
   * for providers that say it there rather than in a `Retry-After` header (which wins when present).
   */
  retryAfterMs?(status: number, body: unknown): number | undefined;
  /**
   * Token counting (POST /v1/messages/count_tokens), for providers with an endpoint that counts a prompt's input
   * tokens. Omitted: the gateway answers that the provider cannot count tokens.
   */
  countTokens?: TokenCounter;
}

/** How a provider counts the input tokens of a chat request without answering it. */
export interface TokenCounter {
  /** The upstream counting request for the OpenAI-format chat body (the same context as `buildRequest`; never a stream). */
  buildRequest(context: ProviderRequestContext): UpstreamRequest;
  /** The input token count of a successful answer (parsed JSON); throws `upstream_invalid_response` when it has none. */
  readCount(answer: unknown): number;
}

/**
 * Declares a provider adapter with full type checking.
 * @example
 * export default defineProvider({ name: 'my-llm', openaiCompatible: true, buildRequest: (ctx) => ({ ... }) });
 */
export function defineProvider(plugin: Omit<ProviderPlugin, 'kind'> & { kind?: 'provider' }): ProviderPlugin {
  return { ...plugin, kind: 'provider' };
}

// ---------------------------------------------------------------- storage

/** A storage adapter plugin: a factory that the gateway options can name. */
export interface StoragePlugin<Options = Record<string, unknown>> extends PluginMeta {
  kind: 'storage';
  create(options: Options): StorageAdapter;
}

/**
 * Declares a storage adapter plugin.
 * @example
 * export default defineStorage({ name: 'redis', create: (opts) => redisStorage(opts) });
 */
export function defineStorage<Options = Record<string, unknown>>(
  plugin: Omit<StoragePlugin<Options>, 'kind'> & { kind?: 'storage' },
): StoragePlugin<Options> {
  return { ...plugin, kind: 'storage' };
}

/** Any plugin the gateway accepts. */
export type GatewayPlugin = GuardrailPlugin<object, unknown> | ProviderPlugin | StoragePlugin<never>;
