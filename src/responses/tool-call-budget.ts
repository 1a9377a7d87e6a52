// A response's `max_tool_calls`: how many MCP calls the tool loop may still run, and what becomes of the model's calls past it.
import type { ChatTool } from './chat-request-options.js';
import type { ResponsesRequest } from './responses-types.js';
import type { ToolNameMap } from './tool-name-map.js';

/**
 * Counts the MCP calls a response runs against the request's `max_tool_calls` (unlimited without it). Only calls the
 * gateway runs count (function calls are the client's to run; a denied approval runs nothing). Once the limit is
 * reached, the model's further MCP calls are ignored: not run, not put up for approval, and no MCP tool is offered in
 * later rounds, so the model answers with what it has.
 */
export class ToolCallBudget {
  private used = 0;

  constructor(private readonly limit: number = Number.POSITIVE_INFINITY) {}

  /** Whether no further MCP call may run. */
  get spent(): boolean {
    return this.used >= this.limit;
  }

  /** Takes one call from the budget; false (taking nothing) when it is spent. */
  take(): boolean {
    if (this.spent) return false;
    this.used++;
    return true;
  }

  /** What the model is told for a call it made past the limit (a chat model needs an answer for every call it made). */
  ignored(): string {
    return `Error: this call was not run: the response reached its limit of ${this.limit} tool calls (max_tool_calls). Answer with the results you have.`;
  }

  /**
   * The request as one round sees it: once the budget is spent, the offered tools lose every MCP tool, and an `mcp`
   * `tool_choice` (which would force one) becomes `auto`.
   */
  round(request: ResponsesRequest, tools: ChatTool[], names: ToolNameMap): { request: ResponsesRequest; tools: ChatTool[] } {
    if (!this.spent) return { request, tools };
    const choice = request.tool_choice;
    return {
      request: typeof choice === 'object' && choice.type === 'mcp' ? { ...request, tool_choice: 'auto' } : request,
      tools: tools.filter((tool) => names.resolve(tool.function.name) === undefined),
    };
  }
}
