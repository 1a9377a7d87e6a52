// The application's (or route's) guardrail policy on /v1/responses: input checks before the first model call, output checks on the final answer.
import type { GuardrailPolicy } from '../admin/policy-validation.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { runChecks } from '../guardrails/pipeline/check-runner.js';
import { processorsFor } from '../guardrails/pipeline/effective-policy.js';
import { enforceInputPolicy, type InputPolicyDeps } from '../guardrails/pipeline/input-policy.js';
import { requestSlots, type TextSlot } from '../guardrails/pipeline/message-text.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';
import { DefinitionTexts } from '../guardrails/pipeline/schema-text-slots.js';
import { functionSlots, outputFormatSlots } from '../guardrails/pipeline/tool-definition-slots.js';
import type { OutputItem, ResponsesRequest } from './responses-types.js';

/** The request's `instructions` as a slot (a DLP transform rewrites it before any model call), or none. */
function instructionSlots(request: { instructions?: string }): TextSlot[] {
  if (typeof request.instructions !== 'string' || request.instructions === '') return [];
  return [{ text: request.instructions, replace: (next) => void (request.instructions = next) }];
}

/**
 * The slots of the request's function tools (name read-only, description, `parameters`) and of a `json_schema`
 * `text.format` (name read-only, description, `schema`), which the tool loop turns into the chat body's tools and
 * response format: rewritten here, before any model call, they are sent rewritten. MCP tools listed from tool
 * servers are not the client's text, and are left to the registries' policies.
 */
function definitionSlots(request: Pick<ResponsesRequest, 'tools' | 'text'>): TextSlot[] {
  const texts = new DefinitionTexts();
  (request.tools ?? []).forEach((tool, index) => {
    if (tool.type === 'function') functionSlots(tool, `tools[${index}]`, texts);
  });
  outputFormatSlots(request.text?.format, 'text.format', texts);
  return texts.slots;
}

/**
 * Runs the policy in force on the request's `instructions`, input messages, function tools and output format, as the
 * model endpoints do (DLP transforms rewrite them in place), and answers the policy so the caller can check the output.
 * Throws 503 `guardrail_unavailable` when the policy names an unregistered processor, and the policy's rejection when
 * an input check rejects.
 */
export function checkResponsesInput(
  deps: InputPolicyDeps,
  context: ModelRequestContext,
  request: Pick<ResponsesRequest, 'instructions' | 'tools' | 'text'>,
  inputMessages: Array<Record<string, unknown>>,
): Promise<Readonly<GuardrailPolicy>> {
  const messages = { endpoint: 'chat' as const, body: { messages: inputMessages } };
  return enforceInputPolicy(deps, context, ['input', 'output'], () => [...instructionSlots(request), ...requestSlots(messages.endpoint, messages.body), ...definitionSlots(request)], () => messages);
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
    .map((part) => ({
      text: part.text as string,
      replace: (next: string) => {
        // Rewritten text drops its token log probabilities, which would otherwise still spell out what was masked.
        if (next !== part.text && Array.isArray(part.logprobs)) part.logprobs = [];
        part.text = next;
      },
    }));
}

/** Output items whose `arguments` the model wrote and a DLP transform may rewrite: a function call the client runs. */
const REWRITTEN_ARGUMENTS = new Set(['function_call']);
/**
 * Output items whose `arguments` the model wrote but which are checked only: an approval request's arguments are bound
 * to its id (a rewritten one would not verify when echoed back), and an MCP call's were already sent to the tool.
 */
const CHECKED_ARGUMENTS = new Set(['mcp_approval_request', 'mcp_call']);

/** The refusal parts of the response's message items (the model's text as much as an answer's), rewritten in place. */
function refusalSlots(output: OutputItem[]): TextSlot[] {
  return output
    .filter((item) => item.type === 'message' && Array.isArray(item.content))
    .flatMap((item) => (item.content as Array<Record<string, unknown>>).filter((part) => part.type === 'refusal' && typeof part.refusal === 'string'))
    .map((part) => ({ text: part.refusal as string, replace: (next: string) => void (part.refusal = next) }));
}

/** Every text of the response's items the model wrote: message text and refusals, and the arguments of its function and MCP calls. */
function checkedSlots(output: OutputItem[]): TextSlot[] {
  const slots = [...outputSlots(output), ...refusalSlots(output)];
  for (const item of output) {
    if (typeof item.arguments !== 'string') continue;
    if (REWRITTEN_ARGUMENTS.has(item.type)) slots.push({ text: item.arguments, replace: (next) => void (item.arguments = next) });
    else if (CHECKED_ARGUMENTS.has(item.type)) slots.push({ text: item.arguments, replace: () => undefined });
  }
  return slots;
}

/** The output item types {@link checkResponsesOutput} reads, which a rejected response withholds. */
export const CHECKED_OUTPUT_ITEMS: ReadonlySet<string> = new Set(['message', ...REWRITTEN_ARGUMENTS, ...CHECKED_ARGUMENTS]);

/**
 * Runs the policy's output checks on the final answer's text and the arguments of the calls the model made (a DLP
 * transform rewrites the message text and function call arguments); throws the policy's rejection when one rejects.
 */
export async function checkResponsesOutput(engine: GuardrailEngine, policy: Readonly<GuardrailPolicy>, context: ModelRequestContext, output: OutputItem[]): Promise<void> {
  if (!checksOutput(policy)) return;
  const run = await runChecks(engine, policy, 'output', checkedSlots(output));
  context.checks.push(...run.checks);
  if (run.reject) throw run.reject;
}

/** The response's `output_text`: the text of its message items, after any transform. */
export function outputText(output: OutputItem[]): string {
  return outputSlots(output)
    .map((slot) => slot.text)
    .join('');
}
