// The model endpoints the gateway serves, their paths and the minimal body checks, compiled once.
import type { ModelEndpoint } from '../plugins/plugin-types.js';
import { compileValidator, type Validator } from '../validation/schema-validator.js';

/** Path of each model endpoint. */
export const ENDPOINT_PATHS: Record<ModelEndpoint, string> = {
  chat: '/v1/chat/completions',
  completions: '/v1/completions',
  embeddings: '/v1/embeddings',
};

const common = {
  model: { type: 'string', minLength: 1 },
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
};
