// Turns a Responses `input` (a string or items) into chat messages, and picks out approval responses.
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
}

/** The chat messages and approval responses carried by `input`. */
export function readInput(input: unknown): { messages: ChatMessage[]; approvals: Array<ApprovalResponse & { param: string }>; requests: Map<string, EchoedApprovalRequest> } {
  const requests = new Map<string, EchoedApprovalRequest>();
  if (typeof input === 'string') return { messages: [{ role: 'user', content: input }], approvals: [], requests };
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
      requests.set(item.id, { id: item.id, server_label: item.server_label, name: item.name, arguments: item.arguments, position: messages.length });
    }
    // mcp_list_tools and mcp_call items echoed back carry nothing the model needs again.
  });
  return { messages, approvals, requests };
}
