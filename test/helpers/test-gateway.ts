// Builds a gateway and an Express app around it for tests, with one admin key per role.
import express, { type Express } from 'express';
import { createGateway, notFoundHandler, errorMiddleware, type Gateway, type GatewayOptions } from '../../src/index.js';

/** Admin keys used by every test gateway, one per role. */
export const TEST_KEYS = {
  superAdmin: 'test-super-admin-key-0123456789',
  admin: 'test-admin-key-0123456789abcdef',
  viewer: 'test-viewer-key-0123456789abcdef',
} as const;

/** A gateway mounted in an Express app, ready to serve. */
export interface TestGateway {
  gateway: Gateway;
  app: Express;
  close(): Promise<void>;
}

/**
 * Creates a gateway with memory storage (unless given) and the three test admin keys, mounted in a fresh app.
 * @example
 * const { app, close } = await createTestGateway();
 * await request(app).get('/v1/admin/routes').set('x-api-key', TEST_KEYS.admin).expect(200);
 */
export async function createTestGateway(options: GatewayOptions = {}): Promise<TestGateway> {
  const gateway = createGateway({
    adminKeys: [
      { key: TEST_KEYS.superAdmin, role: 'super_admin', name: 'root' },
      { key: TEST_KEYS.admin, role: 'admin', name: 'ops' },
      { key: TEST_KEYS.viewer, role: 'viewer', name: 'auditor' },
    ],
    ...options,
  });
  await gateway.ready;
  const app = express();
  app.use(gateway.router);
  app.use(notFoundHandler);
  app.use(errorMiddleware());
  return { gateway, app, close: () => gateway.close() };
}
