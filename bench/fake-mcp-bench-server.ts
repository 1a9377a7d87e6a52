// Benchmark tool server: the tests' real MCP SDK server (Streamable HTTP) in its own process.
import { startFakeMcpServer } from '../test/helpers/fake-mcp-server.js';

const server = await startFakeMcpServer({ token: process.argv[2] });
console.log(JSON.stringify({ url: server.url }));
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
