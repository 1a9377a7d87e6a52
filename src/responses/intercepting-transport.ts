// An MCP client transport that runs a registry's proxy logic in-process: refused calls, filtered lists, policies, recording.
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { JsonRpcInterceptor } from '../mcp/jsonrpc-interceptor.js';
import type { JsonRpcMessage } from '../mcp/jsonrpc-messages.js';

/** The error that stands in for an answer whose registry checks failed. */
function uncheckedAnswer(message: JsonRpcMessage): JsonRpcMessage {
  return { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: 'The registry could not check this answer, so it is withheld.' } };
}

/**
 * Wraps the transport to the tool server (carrying the registry's token) with the registry's interceptor,
 * so a call from the Responses tool loop meets the same tool states, policies and log as the HTTP proxy.
 */
export class InterceptingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Delivers transformed messages in the order they arrived. */
  private delivery: Promise<void> = Promise.resolve();

  constructor(
    private readonly inner: Transport,
    private readonly interceptor: JsonRpcInterceptor,
  ) {}

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    // A tool server's request the registry policies withheld is answered on the same transport, as the client would.
    this.interceptor.replyUpstream = (message) => this.inner.send(message as JSONRPCMessage).catch(() => undefined);
    this.inner.onmessage = (message) => {
      this.delivery = this.delivery.then(async () => {
        // A result the registry's checks could not run on is never passed on unchecked: it becomes a JSON-RPC error.
        const transformed = await this.interceptor.transform(message as JsonRpcMessage).catch(() => uncheckedAnswer(message as JsonRpcMessage));
        if (transformed !== undefined) this.onmessage?.(transformed as JSONRPCMessage);
      });
    };
    this.inner.onerror = (error) => this.onerror?.(error);
    this.inner.onclose = () => this.onclose?.();
    await this.inner.start();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const refusals = await this.interceptor.screen([message as JsonRpcMessage]);
    if (refusals.length > 0) {
      this.delivery = this.delivery.then(() => this.onmessage?.(refusals[0] as JSONRPCMessage));
      return;
    }
    await this.inner.send(message, options);
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}
