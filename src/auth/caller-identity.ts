// Identifies the caller of a model, guardrail or tool request from its developer key (or, where allowed, an admin key).
import type { Request, RequestHandler } from 'express';
import type { AdminKeyring, AdminPrincipal } from '../admin/admin-auth.js';
import type { DeveloperKeyStore } from '../admin/developer-key-store.js';
import { Errors } from '../errors/error-registry.js';
import { keepWithRequest, keptWithRequest } from '../observability/request-record.js';

/** Who made a request: an application (through a developer key) or an admin. */
export type Caller = { kind: 'application'; application: string; keyId: string } | { kind: 'admin'; admin: AdminPrincipal };

const CALLER = Symbol('gateway.caller');

/** The header carrying the developer key. Express lower-cases header names. */
export const DEVELOPER_KEY_HEADER = 'x-gateway-apikey';

const BEARER = /^Bearer\s+(\S+)$/i;

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(req: Request): string | undefined {
  const header = req.headers.authorization;
  return header ? BEARER.exec(header)?.[1] : undefined;
}

/**
 * Reads the developer key from `x-gateway-apikey`, or, where `bearer` is allowed, from `Authorization: Bearer`.
 * When both are sent, `x-gateway-apikey` wins and the Bearer is ignored.
 */
export function presentedKey(req: Request, bearer = false): string | undefined {
  const header = req.headers[DEVELOPER_KEY_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  return bearer ? bearerToken(req) : undefined;
}

/**
 * Resolves the caller, or throws 401. Admin keys are accepted only when `keyring` is given.
 * The result is cached on the request.
 */
export async function identifyCaller(
  req: Request,
  developerKeys: DeveloperKeyStore,
  options: { keyring?: AdminKeyring; bearer?: boolean } = {},
): Promise<Caller> {
  const cached = callerOf(req);
  if (cached) return cached;
  const key = presentedKey(req, options.bearer);
  if (key === undefined) throw Errors.missingApiKey([options.bearer ? 'X-Gateway-Apikey or Authorization' : 'X-Gateway-Apikey']);
  const owner = await developerKeys.identify(key);
  let caller: Caller | undefined;
  if (owner) caller = { kind: 'application', application: owner.application, keyId: owner.keyId };
  else {
    const admin = options.keyring?.identify(key);
    if (admin) caller = { kind: 'admin', admin };
  }
  if (!caller) throw Errors.invalidApiKey([options.bearer ? 'X-Gateway-Apikey or Authorization' : 'X-Gateway-Apikey']);
  keepWithRequest(req, 'caller', CALLER, caller);
  return caller;
}

/** The caller already identified on this request, if any. */
export function callerOf(req: Request): Caller | undefined {
  return keptWithRequest<Caller>(req, 'caller', CALLER);
}

/**
 * Middleware for model endpoints: authenticates the developer key from the headers (`X-Gateway-Apikey`,
 * or `Authorization: Bearer gwk_…`) before the body is read, so an unknown or missing key costs one
 * hashed lookup and never a body read (401). The caller is cached on the request for later steps.
 * Admin keys are refused.
 * @example
 * router.post('/v1/chat/completions', requireDeveloperKey(keys), jsonBody(), handler);
 */
export function requireDeveloperKey(developerKeys: DeveloperKeyStore): RequestHandler {
  return function authenticateDeveloperKey(req, _res, next) {
    // Warm path: a known key decided from the cached records, with no promise.
    const key = callerOf(req) ? undefined : presentedKey(req, true);
    const known = key === undefined ? undefined : developerKeys.peekIdentify(key)?.owner;
    if (known) {
      keepWithRequest(req, 'caller', CALLER, { kind: 'application', application: known.application, keyId: known.keyId });
      next();
      return;
    }
    return identifyCaller(req, developerKeys, { bearer: true }).then((caller) => {
      if (caller.kind !== 'application') throw Errors.invalidApiKey(['X-Gateway-Apikey or Authorization']);
      next();
    });
  };
}
