// Thinking in OpenAI-format answers read as Anthropic thinking blocks: text from `reasoning_content`, signatures and redacted data from `thinking_blocks`.

type Json = Record<string, unknown>;

/** A thinking block as POST /v1/messages answers it. */
export type AnswerThinkingBlock = { type: 'thinking'; thinking: string; signature: string } | { type: 'redacted_thinking'; data: string };

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The reasoning text of a message or delta: `reasoning_content` (Anthropic's, DeepSeek's, vLLM's), else `reasoning`; undefined when empty. */
export function reasoningText(holder: Json): string | undefined {
  const text = typeof holder.reasoning_content === 'string' ? holder.reasoning_content : holder.reasoning;
  return typeof text === 'string' && text !== '' ? text : undefined;
}

/**
 * The thinking blocks of an answer's message, in order: its `thinking_blocks` (text, signature and redacted data as
 * they came: output checks have read, and DLP rewritten, their text), else one block of its reasoning text with an
 * empty signature (an OpenAI-format model's reasoning, which no Anthropic model would take back signed). None when
 * the message has no thinking.
 */
export function thinkingBlocksOf(message: Json): AnswerThinkingBlock[] {
  const blocks = Array.isArray(message.thinking_blocks) ? message.thinking_blocks.flatMap((block: unknown): AnswerThinkingBlock[] => {
    if (!isRecord(block)) return [];
    if (block.type === 'thinking' && typeof block.thinking === 'string') {
      return [{ type: 'thinking', thinking: block.thinking, signature: typeof block.signature === 'string' ? block.signature : '' }];
    }
    return block.type === 'redacted_thinking' && typeof block.data === 'string' ? [{ type: 'redacted_thinking', data: block.data }] : [];
  }) : [];
  if (blocks.length > 0) return blocks;
  const text = reasoningText(message);
  return text === undefined ? [] : [{ type: 'thinking', thinking: text, signature: '' }];
}

/**
 * The signatures and redacted blocks of a stream delta's `thinking_blocks` (text there is left out: a stream's
 * thinking text is its `reasoning_content`, the text output checks read). A signature ends its thinking block.
 */
export function streamedThinking(delta: Json): Array<{ type: 'thinking'; signature: string } | { type: 'redacted_thinking'; data: string }> {
  if (!Array.isArray(delta.thinking_blocks)) return [];
  return delta.thinking_blocks.flatMap((block: unknown): Array<{ type: 'thinking'; signature: string } | { type: 'redacted_thinking'; data: string }> => {
    if (!isRecord(block)) return [];
    if (block.type === 'thinking' && typeof block.signature === 'string' && block.signature !== '') return [{ type: 'thinking', signature: block.signature }];
    return block.type === 'redacted_thinking' && typeof block.data === 'string' ? [{ type: 'redacted_thinking', data: block.data }] : [];
  });
}
