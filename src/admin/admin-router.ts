// The admin router: no-store answers, x-api-key authentication, role checks, JSON bodies (no prototype-reaching keys) and every admin resource under /v1/admin.
import { Router } from 'express';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { errorMiddleware, notFoundHandler } from '../errors/error-middleware.js';
import { jsonBody } from '../http/json-body.js';
import { refusePrototypeKeys } from '../http/prototype-keys.js';
import { adminAnswerHeaders } from './admin-answer-headers.js';
import { requireAdminKey, requireWriteRoleForChanges, type AdminKeyring } from './admin-auth.js';
import type { AdminServices } from './admin-services.js';
import { applicationsRouter } from './applications-router.js';
import { providerKeysRouter } from './provider-keys-router.js';
import { providersRouter } from './providers-router.js';
import { refuseUnreadQuery, type QueryEndpoint } from './query-parameters.js';
import { routesRouter } from './routes-router.js';
import { templatesAndGatewaysRouter } from './templates-and-gateways-router.js';

/** The admin endpoints that take query parameters (each checks its own); a query anywhere else is 400. */
const QUERY_ENDPOINTS: readonly QueryEndpoint[] = [
  { method: 'GET', path: /^\/routes\/?$/i },
  { method: 'GET', path: /^\/usage\/?$/i },
  { method: 'GET', path: /^\/applications\/[^/]+\/chronicles\/?$/i },
];

/** Options of {@link adminRouter}. */
export interface AdminRouterOptions {
  services: AdminServices;
  keyring: AdminKeyring;
  bodyLimitBytes: number;
  /** Deepest JSON nesting accepted in bodies (default 64). */
  maxJsonDepth?: number;
  logger?: GatewayLogger;
  /** Extra admin sub-routers mounted under /v1/admin after the built-in ones (Chronicles, MCP registries). */
  extensions?: Router[];
}

/**
 * Creates the admin router, mounted at the application root (its paths start with /v1/admin).
 * @example
 * app.use(gateway.admin);
 */
export function adminRouter(options: AdminRouterOptions): Router {
  const router = Router();
  const admin = Router();
  admin.use(adminAnswerHeaders, requireAdminKey(options.keyring), requireWriteRoleForChanges, refuseUnreadQuery(QUERY_ENDPOINTS), jsonBody({ limitBytes: options.bodyLimitBytes, maxDepth: options.maxJsonDepth }), refusePrototypeKeys);
  admin.use(templatesAndGatewaysRouter(options.services));
  admin.use(providersRouter(options.services));
  admin.use(providerKeysRouter(options.services));
  admin.use(routesRouter(options.services));
  admin.use(applicationsRouter(options.services));
  for (const extension of options.extensions ?? []) admin.use(extension);
  admin.use(notFoundHandler);
  router.use('/v1/admin', admin);
  router.use('/v1/admin', errorMiddleware(options.logger));
  return router;
}
