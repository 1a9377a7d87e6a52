// JSON-RPC messages as the MCP proxy sees them, and the error codes of the answers the gateway makes itself.

/** A JSON-RPC message, loosely typed. */
export interface JsonRpcMessage {
  jsonrpc?: string;
  id?: string | number | null;
  method?: string;
  params?: { name?: string; arguments?: unknown; [key: string]: unknown };
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** JSON-RPC error code for calls the gateway refuses (invalid params: no tool name, unknown or disabled tool). */
export const TOOL_REFUSED = -32602;

/** JSON-RPC error code for a request whose answer the gateway could not obtain from the tool server. */
export const INTERNAL_ERROR = -32603;

/** JSON-RPC error code of a tool server's request the gateway withheld from the client (as the MCP spec's example of a rejected sampling request). */
export const REQUEST_REFUSED = -1;

/** Sends a message to the tool server on the client's behalf, in the client's session; never throws. */
export type UpstreamReply = (message: JsonRpcMessage) => Promise<void>;

/** JSON-RPC error code for a request that is not a valid request object (here: a `tools/call` without a usable id). */
export const INVALID_REQUEST = -32600;
