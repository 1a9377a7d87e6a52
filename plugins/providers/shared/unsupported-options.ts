// Chat options a translating adapter cannot honour, refused by name rather than dropped (which would answer something else).
import { Errors } from '../../../src/plugins/plugin-api.js';
import { isRecord } from './openai-chat.js';

/** What the calling adapter can honour of the options checked here. */
export interface HonouredOptions {
  /** `n` above 1 (several choices). */
  n: boolean;
  /** The JSON `response_format` types it honours (`json_object`, `json_schema`). */
  responseFormats: readonly string[];
}

/** True for a member that is present and asks for something: not undefined, null, false, an empty array or object. */
function asks(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return false;
  if (Array.isArray(value)) return value.length > 0;
  return !isRecord(value) || Object.keys(value).length > 0;
}

/**
 * Refuses, with 400 `invalid_value` naming the field, options that change what an answer holds and that the provider
 * cannot give. Always: `logprobs: true` or `top_logprobs` (token log probabilities), audio output (`modalities` with
 * `audio`, or an `audio` member), `web_search_options` (a search the provider would not run), the deprecated
 * `functions` and an object `function_call` (the model would never see the functions; use `tools`), and a non-empty
 * `logit_bias` (token biases the provider has no way to apply). Per provider: `n` above 1 and a JSON
 * `response_format` type, unless `options` says the provider honours them. Hints that leave the answer's content as asked
 * (`seed`, penalties, `prediction`, `store`, `metadata`, `service_tier`) are not checked here.
 */
export function refuseUnsupportedOptions(body: Record<string, unknown>, provider: string, options: HonouredOptions): void {
  const refuse = (param: string, what: string): never => {
    throw Errors.validation([`${param}: the ${provider} provider does not support ${what}.`], { param });
  };
  if (!options.n && typeof body.n === 'number' && body.n > 1) refuse('n', 'more than one choice');
  if (body.logprobs === true) refuse('logprobs', 'token log probabilities');
  if (typeof body.top_logprobs === 'number' && body.top_logprobs > 0) refuse('top_logprobs', 'token log probabilities');
  const format = body.response_format;
  if (isRecord(format) && (format.type === 'json_object' || format.type === 'json_schema') && !options.responseFormats.includes(format.type)) {
    refuse('response_format', `a response_format of type ${format.type}; ask for JSON in the prompt, or use a tool`);
  }
  if (Array.isArray(body.modalities) && body.modalities.includes('audio')) refuse('modalities', 'audio output');
  if (asks(body.audio)) refuse('audio', 'audio output');
  if (asks(body.web_search_options)) refuse('web_search_options', 'web search');
  if (asks(body.functions)) refuse('functions', 'the deprecated functions; send them as tools');
  if (isRecord(body.function_call)) refuse('function_call', 'the deprecated function_call; use tool_choice');
  if (asks(body.logit_bias)) refuse('logit_bias', 'token biases');
}
