// Identifies the caller of a model, guardrail or tool request from its developer key (or, where allowed, an admin key).
import type { Request } from 'express';
import type { AdminKeyring, AdminPrincipal } from '../admin/admin-auth.js';
import type { DeveloperKeyStore } from '../admin/developer-key-store.js';
import { Errors } from '../errors/error-registry.js';

/** Who made a request: an application (through a developer key) or an admin. */
export type Caller = { kind: 'application'; application: string; keyId: string } | { kind: 'admin'; admin: AdminPrincipal };

const CALLER = Symbol('gateway.caller');

/** The header carrying the developer key. Express lower-cases header names. */
export const DEVELOPER_KEY_HEADER = 'x-gateway-apikey';

/** Reads the developer key from `x-gateway-apikey`, or, where `bearer` is allowed, from `Authorization: Bearer`. */
export function presentedKey(req: Request, bearer = false): string | undefined {
  const header = req.headers[DEVELOPER_KEY_HEADER];
  if (typeof header === 'string' && header !== '') return header;
  if (bearer) {
    const match = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (match) return match[1];
  }
  return undefined;
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
  const cached = (req as Request & { [CALLER]?: Caller })[CALLER];
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
  if (!caller) throw Errors.invalidApiKey(['X-Gateway-Apikey']);
  (req as Request & { [CALLER]?: Caller })[CALLER] = caller;
  return caller;
}

/** The caller already identified on this request, if any. */
export function callerOf(req: Request): Caller | undefined {
  return (req as Request & { [CALLER]?: Caller })[CALLER];
}
