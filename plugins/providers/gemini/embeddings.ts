// Gemini embeddings: OpenAI's embeddings request as batchEmbedContents, and the answer back as OpenAI's list.
import { Errors, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import { isRecord, numberField } from '../shared/openai-chat.js';
import { expectObject } from '../shared/openai-chunks.js';
import { geminiModel } from './api.js';

/** The inputs of an OpenAI embeddings body: a string or a list of strings (token arrays are refused). */
function embeddingInputs(body: Record<string, unknown>): string[] {
  const input = body.input;
  if (typeof input === 'string') return [input];
  if (Array.isArray(input) && input.length > 0 && input.every((item) => typeof item === 'string')) return input;
  throw Errors.validation(['input must be a string or a non-empty array of strings for Gemini embeddings.'], { param: 'input' });
}

/** The batchEmbedContents body: one request per input; `dimensions` → `outputDimensionality`. */
export function geminiEmbeddingsBody(context: ProviderRequestContext): string {
  const dimensions = numberField(context.body, 'dimensions');
  const model = `models/${geminiModel(context)}`;
  const requests = embeddingInputs(context.body).map((text) => ({
    model,
    content: { parts: [{ text }] },
    ...(dimensions === undefined ? {} : { outputDimensionality: dimensions }),
  }));
  return JSON.stringify({ requests });
}

/** The vector as base64 of little-endian float32 values. */
function float32Base64(values: number[]): string {
  const bytes = Buffer.alloc(values.length * 4);
  values.forEach((value, index) => bytes.writeFloatLE(value, index * 4));
  return bytes.toString('base64');
}

/** The vector of one Gemini embedding: `values`, a non-empty array of finite numbers, or 502 naming its place. */
function embeddingValues(embedding: unknown, index: number): number[] {
  const values = isRecord(embedding) ? embedding.values : undefined;
  if (Array.isArray(values) && values.length > 0 && values.every((value) => typeof value === 'number' && Number.isFinite(value))) return values as number[];
  throw Errors.upstreamInvalidResponse([`the Gemini embedding ${index} has no vector of numbers`]);
}

/**
 * OpenAI's embeddings answer from `{embeddings: [{values}]}`. With `encoding_format: "base64"` each vector
 * is base64 of little-endian float32, as OpenAI sends it. Gemini reports no token counts, so usage is 0. An answer
 * with another count of embeddings than the inputs, or an embedding without a vector of numbers, is 502
 * `upstream_invalid_response` (retried and falling back as one), never a list of empty or misplaced vectors.
 */
export function translateGeminiEmbeddings(upstream: unknown, context: ProviderRequestContext): Record<string, unknown> {
  const answer = expectObject(upstream, 'the Gemini embeddings answer');
  if (!Array.isArray(answer.embeddings)) throw Errors.upstreamInvalidResponse(['the Gemini embeddings answer has no embeddings array']);
  const inputs = Array.isArray(context.body.input) ? context.body.input.length : 1;
  if (answer.embeddings.length !== inputs) throw Errors.upstreamInvalidResponse([`the Gemini embeddings answer has ${answer.embeddings.length} embeddings for ${inputs} inputs`]);
  const base64 = context.body.encoding_format === 'base64';
  const data = answer.embeddings.map((embedding, index) => {
    const values = embeddingValues(embedding, index);
    const vector = base64 ? float32Base64(values) : values;
    return { object: 'embedding', index, embedding: vector };
  });
  return { object: 'list', data, model: context.model, usage: { prompt_tokens: 0, total_tokens: 0 } };
}
