// The retry/fallback proxy router: sends resolved model requests upstream and answers the result.
import { Router, type RequestHandler } from 'express';
import { errorMiddleware, type GatewayLogger } from '../errors/error-middleware.js';
import { proxyModelRequest, type FallbackProxyDeps } from './fallback-proxy.js';
import { setGatewayHeaders } from './gateway-headers.js';
import { ENDPOINT_PATHS } from './model-endpoints.js';
import { modelContextOf } from './model-request-context.js';

/** The proxy router's step: sends the resolved request upstream and answers; passes on requests without a resolved context. */
export function proxyHandler(deps: FallbackProxyDeps): RequestHandler {
  return async function proxyToProvider(req, res, next) {
    const context = modelContextOf(req);
    if (!context) {
      next();
      return;
    }
    const outcome = await proxyModelRequest(deps, context, res);
    if (!outcome.ok && !res.headersSent) {
      setGatewayHeaders(res, context);
      throw outcome.error;
    }
  };
}

/** Creates the proxy router; it acts on requests the route resolver has resolved. */
export function proxyRouter(deps: FallbackProxyDeps, logger?: GatewayLogger): Router {
  const router = Router();
  router.post(Object.values(ENDPOINT_PATHS), proxyHandler(deps));
  router.use(Object.values(ENDPOINT_PATHS), errorMiddleware(logger));
  return router;
}
