// The model endpoints the gateway serves, their paths and the minimal body checks, compiled once.
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { compileValidator, type Validator } from '../validation/schema-validator.js';

/** Path of each model endpoint. */
export const ENDPOINT_PATHS: Record<ModelEndpoint, string> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
  moderations: '/v1/moderations',
  images: '/v1/images/generations',
  speech: '/v1/audio/speech',
  transcriptions: '/v1/audio/transcriptions',
};

/**
 * The path as Express's router matches a route by default: case-insensitive, one trailing slash allowed. Model paths
 * are looked up by this key, so `/V1/Chat/Completions/` finds the chat endpoint as Express would.
 */
export function endpointPathKey(path: string): string {
  const lower = path.toLowerCase();
  return lower.length > 1 && lower.endsWith('/') ? lower.slice(0, -1) : lower;
}

/** Endpoints whose answers are relayed as bytes, whatever their type (audio, images, transcripts as text or JSON). */
export const RAW_ANSWER_ENDPOINTS: ReadonlySet<ModelEndpoint> = new Set(['images', 'speech', 'transcriptions']);

/** Endpoints whose streams are relayed as bytes too (transcription events), where image generation streams are relayed as SSE. */
export const RAW_STREAM_ENDPOINTS: ReadonlySet<ModelEndpoint> = new Set(['transcriptions']);

/**
 * Whether a checked body asks for a stream: `stream: true` in JSON, or the form field `stream=true` of a transcription
 * upload (a multipart field is text).
 */
export function asksForStream(endpoint: ModelEndpoint, body: Record<string, unknown>): boolean {
  return body.stream === true || (endpoint === 'transcriptions' && body.stream === 'true');
}

/** Endpoints whose answers carry model text that output checks can read. */
export const TEXT_ANSWER_ENDPOINTS: ReadonlySet<ModelEndpoint> = new Set(['chat', 'completions']);

/**
 * Endpoints whose streams take chat's `stream_options` (the gateway asks for the usage chunk). Others, image generations
 * with `stream: true`, have no such member: OpenAI refuses a body that holds it, and their events carry usage anyway.
 */
export const STREAM_USAGE_ENDPOINTS: ReadonlySet<ModelEndpoint> = new Set(['chat', 'completions']);

/** The longest model name accepted, in characters. */
export const MAX_MODEL_NAME_LENGTH = 512;

/**
 * The JSON Schema of a request's `model`: a name goes into upstream bodies and paths, answer headers, logs, spans and
 * usage totals, so it is bounded and holds no control characters and no lone surrogates, which cannot be encoded as
 * UTF-8 (400 otherwise, naming the field, never echoing it). Ajv matches patterns with the `u` flag: the range
 * `\ud800-\udfff` matches only unpaired surrogates.
 */
export const MODEL_NAME_SCHEMA = { type: 'string', minLength: 1, maxLength: MAX_MODEL_NAME_LENGTH, pattern: '^[^\\u0000-\\u001f\\u007f\\ud800-\\udfff]*$' } as const;

const common = {
  model: MODEL_NAME_SCHEMA,
  stream: { type: 'boolean' },
};

/** Body validators per endpoint: only what the gateway relies on; other fields pass to the provider. */
export const ENDPOINT_BODY: Record<ModelEndpoint, Validator<Record<string, unknown>>> = {
  chat: compileValidator({
    type: 'object',
    required: ['messages'],
    properties: {
      ...common,
      messages: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', required: ['role'], properties: { role: { type: 'string' } } },
      },
    },
  }),
  completions: compileValidator({
    type: 'object',
    required: ['prompt'],
    properties: { ...common, prompt: { type: ['string', 'array'] } },
  }),
  embeddings: compileValidator({
    type: 'object',
    required: ['input'],
    properties: { ...common, input: { type: ['string', 'array'] } },
  }),
  moderations: compileValidator({
    type: 'object',
    required: ['input'],
    properties: { ...common, input: { type: ['string', 'array'] } },
  }),
  images: compileValidator({
    type: 'object',
    required: ['prompt'],
    properties: { ...common, prompt: { type: 'string', minLength: 1 } },
  }),
  speech: compileValidator({
    type: 'object',
    required: ['input'],
    properties: { ...common, input: { type: 'string', minLength: 1 } },
  }),
  transcriptions: compileValidator({
    type: 'object',
    required: ['file'],
    properties: { model: common.model, prompt: { type: 'string' }, stream: { enum: ['true', 'false'] } },
  }),
};
