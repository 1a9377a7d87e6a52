// A real MCP server (the official SDK) whose tools ask the client for things: sampling and elicitation, on the tool call's stream or on the GET stream.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { serveSdkSessions } from '../helpers/sdk-session-server.js';

/** What the tools send to the client. */
export interface SamplingTexts {
  /** The user message of a sampling request. */
  message: string;
  /** Its system prompt. */
  systemPrompt: string;
  /** An elicitation's message. */
  elicitation: string;
}

/** A running sampling tool server. */
export interface SamplingToolServer {
  url: string;
  /** How many GET streams were opened (counted once the tool server can send on them). */
  streams(): number;
  close(): Promise<void>;
}

/**
 * Starts a server with tools `summarize` (a `sampling/createMessage` on the call's own stream), `summarize_later` (the
 * same on the session's GET stream) and `confirm` (an `elicitation/create`). Each answers what the client answered, or
 * `refused: <error message>` with `isError` when the request got a JSON-RPC error. Requests time out after 5 s.
 */
export async function startSamplingToolServer(texts: () => SamplingTexts): Promise<SamplingToolServer> {
  let streams = 0;
  const refused = (error: unknown) => ({ content: [{ type: 'text' as const, text: `refused: ${(error as Error).message}` }], isError: true });
  const build = (): McpServer => {
    const server = new McpServer({ name: 'sampling-tools', version: '1.0.0' });
    const sample = async (related: string | number | undefined) => {
      const { message, systemPrompt } = texts();
      try {
        const answer = await server.server.createMessage(
          { messages: [{ role: 'user', content: { type: 'text', text: message } }], systemPrompt, maxTokens: 100 },
          { timeout: 5000, ...(related === undefined ? {} : { relatedRequestId: related }) },
        );
        return { content: [{ type: 'text' as const, text: `sampled: ${(answer.content as { text?: string }).text}` }] };
      } catch (error) {
        return refused(error);
      }
    };
    server.registerTool('summarize', { description: 'Summarises with the client model.' }, async (extra) => sample(extra.requestId));
    server.registerTool('summarize_later', { description: 'Summarises on the session stream.' }, async () => sample(undefined));
    server.registerTool('confirm', { description: 'Asks the user.' }, async (extra) => {
      try {
        const answer = await server.server.elicitInput(
          { message: texts().elicitation, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', description: 'Proceed?' } } } },
          { timeout: 5000, relatedRequestId: extra.requestId },
        );
        return { content: [{ type: 'text' as const, text: `elicited: ${answer.action}` }] };
      } catch (error) {
        return refused(error);
      }
    });
    return server;
  };
  // GET streams are counted when their answer's headers go out: by then the transport holds the stream and can send on it.
  const served = await serveSdkSessions(build, {
    onGetStream(res) {
      const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
      res.writeHead = ((...args: unknown[]) => {
        if (args[0] === 200) streams += 1;
        return writeHead(...args);
      }) as typeof res.writeHead;
    },
  });
  return { ...served, streams: () => streams };
}
