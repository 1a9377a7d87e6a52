// Child process for the large-log test: serves Chronicles reads from a data directory under a small heap, and reports answers and memory.
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express from 'express';
import { createGateway, errorMiddleware, fileStorage } from '../../src/index.js';

/** The admin key the child's gateway accepts. */
export const CHILD_ADMIN_KEY = 'large-log-admin-key-0123456789';

async function run(dir: string, application: string): Promise<void> {
  const gateway = createGateway({ storage: fileStorage({ dir }), adminKeys: [{ key: CHILD_ADMIN_KEY, role: 'viewer', name: 'reader' }] });
  await gateway.ready;
  const app = express();
  app.use(gateway.router);
  app.use(errorMiddleware());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/admin/applications/${application}`;
  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const res = await fetch(`${base}${path}`, { headers: { 'x-api-key': CHILD_ADMIN_KEY } });
    return { status: res.status, body: await res.json() };
  };
  const before = process.memoryUsage();
  const first = await get('/chronicles?limit=1');
  const second = await get(`/chronicles?limit=1&cursor=${first.body.next_cursor}`);
  const one = await get(`/chronicles/${first.body.data[0]?.id}`);
  const graph = await get('/graph');
  const after = process.memoryUsage();
  process.stdout.write(
    `${JSON.stringify({
      statuses: [first.status, second.status, one.status, graph.status],
      ids: [first.body.data[0]?.id, second.body.data[0]?.id, one.body.id],
      graph: graph.body,
      rssBefore: before.rss,
      rssAfter: after.rss,
      maxRss: process.resourceUsage().maxRSS * 1024,
      heapUsedAfter: after.heapUsed,
    })}\n`,
  );
  server.close();
  await gateway.close();
}

// Runs only as the main script (`node --import tsx large-log-child.ts <dir> <application>`), not when imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv[2] ?? '', process.argv[3] ?? 'big').catch((error: unknown) => {
    process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
    process.exit(1);
  });
}
