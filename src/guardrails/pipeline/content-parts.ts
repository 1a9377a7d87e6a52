// The content parts of a request as input checks walk them, each named by where the client sent it.
import type { ModelEndpoint } from '../../plugins/plugin-types.js';
import { partOrigin } from './part-origins.js';

/** A request as the input checks read it: its endpoint and its (OpenAI-format) body. */
export interface CheckedRequest {
  endpoint: ModelEndpoint;
  body: Record<string, unknown>;
}

/** True for a plain object (not null, not an array). */
export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A content part of a request, with where the client sent it. */
export interface PlacedPart {
  part: unknown;
  param: string;
}

/** The content parts of a chat body's messages and predicted output, each with where the client sent it (see part-origins). */
export function chatContentParts(body: Record<string, unknown>): PlacedPart[] {
  const placed: PlacedPart[] = [];
  const add = (content: unknown, param: string): void => {
    if (Array.isArray(content)) content.forEach((part: unknown, index) => placed.push({ part, param: partOrigin(part) ?? `${param}[${index}]` }));
  };
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  messages.forEach((message, index) => {
    if (isRecord(message)) add(message.content, `messages[${index}].content`);
  });
  if (isRecord(body.prediction)) add(body.prediction.content, 'prediction.content');
  return placed;
}

