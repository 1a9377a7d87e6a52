// A hand-written, lenient MCP tool server on loopback (plain node:http) whose tools/call and GET answers each test scripts: for misbehaving servers.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/** One request the raw server received. */
export interface RawRequest {
  method: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A running raw tool server. */
export interface RawToolServer {
  url: string;
  /** Every request received, in order. */
  requests: RawRequest[];
  /** The JSON-RPC messages received with method `tools/call`, whatever their id. */
  calls(): unknown[];
  /** How `tools/call` is answered; by default a JSON result echoing the tool name. */
  onCall: (message: { id?: unknown; params?: { name?: string } }, res: ServerResponse) => void;
  /** How a POSTed message of another method (not initialize, tools/list or tools/call) is answered; by default 202, no body. */
  onOther: (message: { id?: unknown; method?: string; params?: unknown }, res: ServerResponse) => void;
  /** How GET is answered; by default 405. */
  onGet: (req: IncomingMessage, res: ServerResponse) => void;
  close(): Promise<void>;
}

/** The tools the raw server lists. */
export const RAW_TOOLS = [
  { name: 'probe', description: 'Returns a fixed text.', inputSchema: { type: 'object', properties: {} } },
  { name: 'danger', description: 'Deletes things.', inputSchema: { type: 'object', properties: {} } },
];

/**
 * Starts a raw tool server: `initialize` and `tools/list` are answered as JSON, notifications with 202, and every
 * `tools/call` is run (this server does not check ids), answered by `onCall`. `tools` is what `tools/list` answers.
 */
export async function startRawToolServer(tools: readonly unknown[] = RAW_TOOLS): Promise<RawToolServer> {
  const requests: RawRequest[] = [];
  const state: RawToolServer = {
    url: '',
    requests,
    calls: () =>
      requests
        .filter((r) => r.method === 'POST')
        .map((r) => {
          try {
            return JSON.parse(r.body) as { method?: string };
          } catch {
            return {};
          }
        })
        .flatMap((m) => (Array.isArray(m) ? m : [m]))
        .filter((m) => (m as { method?: string }).method === 'tools/call'),
    onCall: (message, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { content: [{ type: 'text', text: `ran ${message.params?.name}` }] } }));
    },
    onOther: (_message, res) => {
      res.writeHead(202).end();
    },
    onGet: (_req, res) => {
      res.writeHead(405).end();
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', headers: req.headers, body });
      if (req.method === 'GET') return state.onGet(req, res);
      if (req.method !== 'POST') return void res.writeHead(200).end();
      let message: { id?: unknown; method?: string; params?: { name?: string } };
      try {
        message = JSON.parse(body);
      } catch {
        return void res.writeHead(400).end();
      }
      const json = (result: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      };
      if (message.method === 'initialize') return json({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1.0.0' } });
      if (message.method === 'tools/list') return json({ tools });
      if (message.method === 'tools/call') return state.onCall(message, res);
      state.onOther(message, res);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/mcp`;
  return state;
}
