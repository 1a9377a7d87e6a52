// Child process for the kill -9 test: creates an application with keys and a policy, deletes it, and again, until it is killed.
import { pathToFileURL } from 'node:url';
import express from 'express';
import request from 'supertest';
import { createGateway, errorMiddleware, fileStorage } from '../../src/index.js';

/** The admin key of the child's gateway (and of the parent's check). */
export const CHURN_ADMIN_KEY = 'churn-super-admin-key-0123456789';

async function run(dir: string): Promise<void> {
  const gateway = createGateway({ storage: fileStorage({ dir }), adminKeys: [{ key: CHURN_ADMIN_KEY, role: 'super_admin', name: 'churn' }] });
  await gateway.ready;
  const app = express();
  app.use(gateway.router);
  app.use(errorMiddleware());
  const admin = (method: 'post' | 'put' | 'delete', url: string, body?: object) => {
    const call = request(app)[method](url).set('x-api-key', CHURN_ADMIN_KEY);
    return body ? call.send(body) : call;
  };
  process.stdout.write('started\n');
  for (;;) {
    await admin('delete', '/v1/admin/applications/shop');
    await admin('post', '/v1/admin/applications', { name: 'shop' });
    await admin('put', '/v1/admin/applications/shop/policy', { mode: 'reject' });
    for (let i = 0; i < 3; i++) {
      const created = await admin('post', '/v1/admin/applications/shop/keys', {});
      if (created.status === 201) process.stdout.write(`key ${created.body.key}\n`);
    }
  }
}

// Runs only as the main script (`node --import tsx app-churn-child.ts <dir>`), not when imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv[2] ?? '').catch((error: unknown) => {
    process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
    process.exit(1);
  });
}
