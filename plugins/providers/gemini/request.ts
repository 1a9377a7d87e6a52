// Gemini's request body: OpenAI chat messages, tools and sampling options as a generateContent request.
import { Errors, type ProviderRequestContext } from '../../../src/plugins/plugin-api.js';
import {
  contentText, isRecord, maxTokens, numberField, parseArguments, parseDataUrl, readMessages, readToolChoice, readTools, stopSequences,
  type OpenAiContentPart, type OpenAiMessage,
} from '../shared/openai-chat.js';
import { refuseUnsupportedOptions } from '../shared/unsupported-options.js';
import { readThinking, thinkingForEffort } from '../shared/chat-extensions.js';

/** One part of a Gemini content. */
export type GeminiPart = Record<string, unknown>;
/** One turn of a Gemini conversation. */
export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif', heic: 'image/heic' };

function imagePart(url: string): GeminiPart {
  const inline = parseDataUrl(url);
  if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  const extension = /\.([a-z]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase() ?? '';
  return { fileData: { mimeType: IMAGE_TYPES[extension] ?? 'image/jpeg', fileUri: url } };
}

function contentParts(content: string | OpenAiContentPart[] | null): GeminiPart[] {
  if (content === null || content === '') return [];
  if (typeof content === 'string') return [{ text: content }];
  return content
    .filter((part) => part.type !== 'text' || part.text !== '')
    .map((part) => {
      if (part.type === 'text') return { text: part.text };
      return part.type === 'image_url' ? imagePart(part.image_url.url) : { inlineData: { mimeType: part.file.mediaType, data: part.file.data } };
    });
}

/**
 * A tool message's content as a `functionResponse.response` object: a JSON object as is, anything else under `content`.
 * An image part is 400 naming it: a function response carries no image here, and dropping it would hide it from the model.
 */
function functionResponse(message: OpenAiMessage, index: number): Record<string, unknown> {
  if (Array.isArray(message.content)) {
    const image = message.content.findIndex((part) => part.type !== 'text');
    if (image >= 0) {
      const param = `messages[${index}].content[${image}]`;
      throw Errors.validation([`${param}: the gemini provider does not take images or files in a tool result.`], { param });
    }
  }
  const text = contentText(message.content);
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed : { content: parsed };
  } catch {
    return { content: text };
  }
}

/**
 * Google's documented stand-in for a thought signature that a replayed turn lost: Gemini 3 refuses a turn's function
 * calls without one (400 "missing a thought_signature"), which clients that rebuild their history (an Anthropic SDK
 * client of /v1/messages, a chat client that drops `extra_content`) cannot send. The model then continues without its
 * earlier reasoning state, which Google says may cost some quality; a real signature always wins.
 */
const STAND_IN_SIGNATURE = 'skip_thought_signature_validator';

/** Gemini 3 and later, which require a signature on the function calls of a replayed model turn. */
const SIGNED_CALL_MODELS = /^(?:models\/)?gemini-(?:[3-9]|[1-9]\d)(?:[.-]|$)/;

/** True when `model` requires thought signatures on replayed function calls. */
export function requiresCallSignatures(model: string): boolean {
  return SIGNED_CALL_MODELS.test(model);
}

/**
 * Splits OpenAI messages into Gemini's `systemInstruction` and `contents`. System and developer
 * messages join the instruction; assistant turns become `model` turns with `functionCall` parts (each with the
 * `thoughtSignature` its tool call carried back, which Gemini 3 requires of the calls of the current turn);
 * tool messages become `functionResponse` parts of a user turn, named after the call they answer;
 * consecutive turns of one role merge into one. With `standInSignatures` (Gemini 3 and later), an assistant turn whose
 * calls carry no signature gets the stand-in on its first call, where Gemini puts a turn's signature.
 */
export function geminiContents(messages: OpenAiMessage[], standInSignatures = false): { systemInstruction?: { parts: GeminiPart[] }; contents: GeminiContent[] } {
  const system: GeminiPart[] = [];
  const contents: GeminiContent[] = [];
  const callNames = new Map<string, string>();
  const push = (role: GeminiContent['role'], parts: GeminiPart[]): void => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') {
      const text = contentText(message.content);
      if (text) system.push({ text });
    } else if (message.role === 'user') {
      push('user', contentParts(message.content));
    } else if (message.role === 'assistant') {
      const parts = contentParts(message.content);
      (message.tool_calls ?? []).forEach((call, callIndex) => {
        callNames.set(call.id, call.function.name);
        const args = parseArguments(call.function.arguments, `messages[${index}].tool_calls[${callIndex}].function.arguments`);
        parts.push({ functionCall: { name: call.function.name, args }, ...(call.thought_signature === undefined ? {} : { thoughtSignature: call.thought_signature }) });
      });
      const calls = message.tool_calls ?? [];
      if (standInSignatures && calls.length > 0 && calls.every((call) => call.thought_signature === undefined)) {
        parts.find((part) => part.functionCall !== undefined)!.thoughtSignature = STAND_IN_SIGNATURE;
      }
      push('model', parts);
    } else {
      const name = callNames.get(message.tool_call_id ?? '');
      if (!name) {
        throw Errors.validation([`messages[${index}].tool_call_id names no earlier tool call.`], { param: `messages[${index}].tool_call_id` });
      }
      push('user', [{ functionResponse: { name, response: functionResponse(message, index) } }]);
    }
  });
  return system.length > 0 ? { systemInstruction: { parts: system }, contents } : { contents };
}

/**
 * `generationConfig` from OpenAI's sampling options; undefined when none is set. Anthropic's `thinking` (from POST
 * /v1/messages) with a budget, or else a `reasoning_effort`'s budget, becomes `thinkingConfig.thinkingBudget`; thinking that is off is left to the model's default
 * (some Gemini models cannot turn thinking off, and would refuse a budget of 0).
 */
export function generationConfig(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const config: Record<string, unknown> = {};
  const copy = { temperature: 'temperature', top_p: 'topP', top_k: 'topK', n: 'candidateCount', presence_penalty: 'presencePenalty', frequency_penalty: 'frequencyPenalty', seed: 'seed' };
  for (const [from, to] of Object.entries(copy)) {
    const value = numberField(body, from);
    if (value !== undefined) config[to] = value;
  }
  const max = maxTokens(body);
  if (max !== undefined) config.maxOutputTokens = max;
  const stop = stopSequences(body);
  if (stop && stop.length > 0) config.stopSequences = stop;
  const format = body.response_format;
  if (isRecord(format) && (format.type === 'json_object' || format.type === 'json_schema')) {
    config.responseMimeType = 'application/json';
    if (isRecord(format.json_schema) && isRecord(format.json_schema.schema)) config.responseJsonSchema = format.json_schema.schema;
  }
  // A `thinking` (from POST /v1/messages) wins; else an OpenAI client's reasoning_effort asks for a budget.
  const thinking = readThinking(body) ?? thinkingForEffort(body);
  // Adaptive thinking without a budget is Gemini's dynamic thinking (a budget of -1).
  // Thinking only between tool calls has no Gemini counterpart: the model thinks as it is configured to.
  if (thinking && thinking.type !== 'disabled' && thinking.type !== 'between_tools') config.thinkingConfig = { thinkingBudget: thinking.budget_tokens ?? -1 };
  return Object.keys(config).length > 0 ? config : undefined;
}

/** `tools` (function declarations with JSON Schema parameters) and `toolConfig` from OpenAI's tools and tool_choice. */
function addTools(body: Record<string, unknown>, request: Record<string, unknown>): void {
  const tools = readTools(body);
  if (!tools || tools.length === 0) return;
  request.tools = [{
    functionDeclarations: tools.map((tool) => ({
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      ...(tool.parameters === undefined ? {} : { parametersJsonSchema: tool.parameters }),
    })),
  }];
  const choice = readToolChoice(body);
  if (!choice) return;
  const modes = { auto: 'AUTO', none: 'NONE', required: 'ANY', function: 'ANY' } as const;
  const callingConfig: Record<string, unknown> = { mode: modes[choice.mode] };
  if (choice.mode === 'function') callingConfig.allowedFunctionNames = [choice.name];
  request.toolConfig = { functionCallingConfig: callingConfig };
}

/** The generateContent body for an OpenAI chat body; the model and streaming live in the URL. `logprobs` and `top_logprobs` are 400. */
export function geminiChatBody(context: ProviderRequestContext): string {
  refuseUnsupportedOptions(context.body, 'gemini', { n: true, responseFormats: ['json_object', 'json_schema'] });
  const request: Record<string, unknown> = { ...geminiContents(readMessages(context.body), requiresCallSignatures(context.model)) };
  const config = generationConfig(context.body);
  if (config) request.generationConfig = config;
  addTools(context.body, request);
  return JSON.stringify(request);
}

/**
 * The countTokens body for an OpenAI chat body: the prompt as generateContent would get it (`contents`,
 * `systemInstruction`, `tools`, `toolConfig`) inside `generateContentRequest`, with the model Gemini requires there.
 */
export function geminiCountBody(context: ProviderRequestContext, model: string): string {
  const request: Record<string, unknown> = { model: `models/${model}`, ...geminiContents(readMessages(context.body), requiresCallSignatures(model)) };
  addTools(context.body, request);
  return JSON.stringify({ generateContentRequest: request });
}
