// Measures tools/call latency with the official MCP SDK client: straight to the tool server, and through the registry proxy.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { LoadResult } from './load-sampler.js';

// The SDK client's fetch calls all follow one long-lived AbortSignal, and undici releases each call's listener on it
// only when the call's Request is garbage-collected: thousands of calls in a few seconds print a leak warning per call
// in this (load-generating) process. That one warning is left out of the bench's output; every other warning stays.
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  if (warning.name !== 'MaxListenersExceededWarning') console.error(`${warning.name}: ${warning.message}`);
});

/** Calls `add` sequentially for `durationMs` after a warm-up, on one session; latency per call in ms. */
export async function sampleToolCalls(url: string, headers: Record<string, string>, durationMs: number): Promise<LoadResult> {
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  const call = () => client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
  for (let i = 0; i < 200; i++) await call();
  const latencies: number[] = [];
  let errors = 0;
  const until = Date.now() + durationMs;
  const started = Date.now();
  while (Date.now() < until) {
    const begin = process.hrtime.bigint();
    try {
      await call();
      latencies.push(Number(process.hrtime.bigint() - begin) / 1e6);
    } catch {
      errors++;
    }
  }
  await client.close();
  latencies.sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0;
  return { p50: at(50), p99: at(99), rps: latencies.length / ((Date.now() - started) / 1000), requests: latencies.length, errors };
}
