// Turns a Responses `input` (a string or items) into chat messages, and picks out approval responses and echoed MCP calls; refuses items it cannot carry.
import { Errors } from '../errors/error-registry.js';
import { chatContent } from './input-content.js';

/** A chat message in OpenAI's chat format. */
export type ChatMessage = Record<string, unknown> & { role: string };

/** An `mcp_approval_response` input item. */
export interface ApprovalResponse {
  approval_request_id: string;
  approve: boolean;
  reason?: string;
}

/** An `mcp_approval_request` item the client sent back (as the gateway answered it earlier). */
export interface EchoedApprovalRequest {
  id: string;
  server_label: string;
  name: string;
  arguments: string;
  /** How many chat messages came before it in `input`: where its call belongs in the transcript. */
  position: number;
  /** Its index in `input`: the order of calls that belong at the same position. */
  index: number;
}

/** An `mcp_call` item the client sent back (an earlier answer's tool call and its result), kept in the transcript where it was. */
export interface EchoedMcpCall {
  id: string;
  server_label: string;
  name: string;
  arguments: string;
  /** What the model was given back: the tool's output, or `Error: …` when the call failed. */
  result: string;
  /** The approval this call answered, when it needed one: that approval is history, not run again. */
  approval_request_id?: string;
  position: number;
  index: number;
}

/**
 * Item types that carry nothing a chat model is given, so they are skipped without loss: `mcp_list_tools` (the request's
 * own `tools` are listed again) and `reasoning` (an earlier answer's private reasoning, which chat APIs do not take
 * back; the text and calls it led to are kept).
 */
const SKIPPED_ITEMS = new Set(['mcp_list_tools', 'reasoning']);

/** The result an echoed `mcp_call` gave the model, as the tool loop words it. */
function mcpCallResult(item: Record<string, unknown>, param: string): string {
  const error = item.error;
  if (error !== undefined && error !== null) {
    const text = typeof error === 'string' ? error : isRecord(error) && typeof error.message === 'string' ? error.message : JSON.stringify(error);
    return `Error: ${text}`;
  }
  if (item.output === undefined || item.output === null) return '';
  if (typeof item.output !== 'string') throw Errors.validation([`The output of '${param}' must be a string.`], { param: `${param}.output` });
  return item.output;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** What `input` carries: chat messages, approval responses, echoed approval requests and echoed MCP calls. */
export interface ReadInput {
  messages: ChatMessage[];
  approvals: Array<ApprovalResponse & { param: string }>;
  requests: Map<string, EchoedApprovalRequest>;
  calls: EchoedMcpCall[];
}

/**
 * The chat messages and approval responses carried by `input`. An item of a type the gateway does not translate
 * (`item_reference`, hosted tools' calls such as `web_search_call` or `computer_call_output`, …) is a 400 naming
 * `input[i].type`: dropping it would answer another conversation than the one sent.
 */
export function readInput(input: unknown): ReadInput {
  const requests = new Map<string, EchoedApprovalRequest>();
  const calls: EchoedMcpCall[] = [];
  if (typeof input === 'string') return { messages: [{ role: 'user', content: input }], approvals: [], requests, calls };
  if (!Array.isArray(input)) throw Errors.validation(["The field 'input' must be a string or an array of items."], { param: 'input' });
  const messages: ChatMessage[] = [];
  const approvals: Array<ApprovalResponse & { param: string }> = [];
  input.forEach((item: Record<string, unknown>, index) => {
    const param = `input[${index}]`;
    if (!item || typeof item !== 'object') throw Errors.validation([`The item '${param}' must be an object.`], { param });
    const type = item.type ?? 'message';
    if (type === 'message') {
      const role = item.role === 'developer' ? 'system' : String(item.role ?? 'user');
      if (!['user', 'assistant', 'system'].includes(role)) throw Errors.validation([`The role of '${param}' must be user, assistant, system or developer.`], { param: `${param}.role` });
      messages.push({ role, content: chatContent(item.content, role, `${param}.content`) });
    } else if (type === 'function_call') {
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments ?? '{}' } }] });
    } else if (type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: item.call_id, content: typeof item.output === 'string' ? item.output : JSON.stringify(item.output) });
    } else if (type === 'mcp_approval_response') {
      if (typeof item.approval_request_id !== 'string' || typeof item.approve !== 'boolean') {
        throw Errors.validation([`The item '${param}' needs approval_request_id and approve.`], { param });
      }
      approvals.push({ approval_request_id: item.approval_request_id, approve: item.approve, reason: typeof item.reason === 'string' ? item.reason : undefined, param });
    } else if (type === 'mcp_approval_request') {
      if (typeof item.id !== 'string' || typeof item.server_label !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string') {
        throw Errors.validation([`The item '${param}' needs id, server_label, name and arguments as strings.`], { param });
      }
      requests.set(item.id, { id: item.id, server_label: item.server_label, name: item.name, arguments: item.arguments, position: messages.length, index });
    } else if (type === 'mcp_call') {
      if (typeof item.id !== 'string' || typeof item.server_label !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string') {
        throw Errors.validation([`The item '${param}' needs id, server_label, name and arguments as strings.`], { param });
      }
      const approval = typeof item.approval_request_id === 'string' ? { approval_request_id: item.approval_request_id } : {};
      calls.push({ id: item.id, server_label: item.server_label, name: item.name, arguments: item.arguments, result: mcpCallResult(item, param), ...approval, position: messages.length, index });
    } else if (typeof type !== 'string' || !SKIPPED_ITEMS.has(type)) {
      const shown = JSON.stringify(String(type)).slice(0, 80);
      throw Errors.validation([`The item '${param}' has the type ${shown}, which this gateway does not translate; send messages, function_call, function_call_output and MCP items.`], { param: `${param}.type` });
    }
  });
  return { messages, approvals, requests, calls };
}
