// The application's (or route's) guardrail policy on /v1/responses: input checks before the first model call, output checks on the final answer.
import type { GuardrailPolicy } from '../admin/policy-validation.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { runChecks } from '../guardrails/pipeline/check-runner.js';
import { processorsFor } from '../guardrails/pipeline/effective-policy.js';
import { enforceInputPolicy, type InputPolicyDeps } from '../guardrails/pipeline/input-policy.js';
import { requestSlots, type TextSlot } from '../guardrails/pipeline/message-text.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';
import type { OutputItem } from './responses-types.js';

/** The request's `instructions` as a slot (a DLP transform rewrites it before any model call), or none. */
function instructionSlots(request: { instructions?: string }): TextSlot[] {
  if (typeof request.instructions !== 'string' || request.instructions === '') return [];
  return [{ text: request.instructions, replace: (next) => void (request.instructions = next) }];
}

/**
 * Runs the policy in force on the request's `instructions` and input messages, as the model endpoints do (DLP
 * transforms rewrite them in place), and answers the policy so the caller can check the output. Throws 503
 * `guardrail_unavailable` when the policy names an unregistered processor, and the policy's rejection when an input
 * check rejects.
 */
export function checkResponsesInput(
  deps: InputPolicyDeps,
  context: ModelRequestContext,
  request: { instructions?: string },
  inputMessages: Array<Record<string, unknown>>,
): Promise<Readonly<GuardrailPolicy>> {
  return enforceInputPolicy(deps, context, ['input', 'output'], () => [...instructionSlots(request), ...requestSlots('chat', { messages: inputMessages })]);
}

/** True when the policy checks answers, so a streamed response must be held until its final text is checked. */
export function checksOutput(policy: Readonly<GuardrailPolicy>): boolean {
  return processorsFor(policy, 'output').length > 0;
}

/** The text parts of the response's message items, which a DLP transform rewrites in place. */
function outputSlots(output: OutputItem[]): TextSlot[] {
  return output
    .filter((item) => item.type === 'message' && Array.isArray(item.content))
    .flatMap((item) => (item.content as Array<Record<string, unknown>>).filter((part) => typeof part.text === 'string'))
    .map((part) => ({ text: part.text as string, replace: (next: string) => void (part.text = next) }));
}

/** Runs the policy's output checks on the final answer's text; throws the policy's rejection when one rejects. */
export async function checkResponsesOutput(engine: GuardrailEngine, policy: Readonly<GuardrailPolicy>, context: ModelRequestContext, output: OutputItem[]): Promise<void> {
  if (!checksOutput(policy)) return;
  const run = await runChecks(engine, policy, 'output', outputSlots(output));
  context.checks.push(...run.checks);
  if (run.reject) throw run.reject;
}

/** The response's `output_text`: the text of its message items, after any transform. */
export function outputText(output: OutputItem[]): string {
  return outputSlots(output)
    .map((slot) => slot.text)
    .join('');
}
