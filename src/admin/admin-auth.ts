// Admin authentication: the x-api-key header against configured admin keys, each with a role.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { Errors } from '../errors/error-registry.js';
import { keepWithRequest, keptWithRequest } from '../observability/request-record.js';

/** Admin roles, weakest first. `viewer` may only read; `admin` may change everything but route policies. */
export type AdminRole = 'viewer' | 'admin' | 'super_admin';

/** One configured admin key. */
export interface AdminKeyConfig {
  key: string;
  role: AdminRole;
  /** Recorded as `created_by`/`modified_by`; defaults to the role name. */
  name?: string;
}

/** The admin identity attached to an authenticated request. */
export interface AdminPrincipal {
  name: string;
  role: AdminRole;
}

const RANK: Record<AdminRole, number> = { viewer: 0, admin: 1, super_admin: 2 };
const ADMIN = Symbol('gateway.admin');

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/** Checks admin keys in constant time against their digests, computed once. */
export class AdminKeyring {
  private readonly keys: Array<{ digest: Buffer; principal: AdminPrincipal }>;

  constructor(keys: AdminKeyConfig[]) {
    this.keys = keys.map((config, index) => {
      if (typeof config.key !== 'string' || config.key.length < 16) {
        throw Errors.configInvalid([`adminKeys[${index}].key must be a string of at least 16 characters`]);
      }
      if (!(config.role in RANK)) throw Errors.configInvalid([`adminKeys[${index}].role must be viewer, admin or super_admin`]);
      return { digest: digest(config.key), principal: { name: config.name ?? config.role, role: config.role } };
    });
  }

  /** The principal of a presented key, or undefined. */
  identify(presented: string): AdminPrincipal | undefined {
    const presentedDigest = digest(presented);
    let found: AdminPrincipal | undefined;
    for (const { digest: known, principal } of this.keys) {
      if (timingSafeEqual(known, presentedDigest)) found = principal;
    }
    return found;
  }
}

/** Middleware requiring a valid `x-api-key`: 401 when missing or wrong. */
export function requireAdminKey(keyring: AdminKeyring): RequestHandler {
  return function authenticateAdmin(req, _res, next) {
    const presented = req.headers['x-api-key'];
    if (typeof presented !== 'string' || presented === '') {
      next(Errors.missingApiKey(['x-api-key']));
      return;
    }
    const principal = keyring.identify(presented);
    if (!principal) {
      next(Errors.invalidApiKey(['x-api-key']));
      return;
    }
    keepWithRequest(req, 'admin', ADMIN, principal);
    next();
  };
}

/** The principal authenticated on this request. */
export function adminOf(req: Request): AdminPrincipal {
  const principal = keptWithRequest<AdminPrincipal>(req, 'admin', ADMIN);
  if (!principal) throw Errors.missingApiKey(['x-api-key']);
  return principal;
}

/** Throws 403 unless the request's admin has at least `role`. */
export function assertRole(req: Request, role: AdminRole): AdminPrincipal {
  const principal = adminOf(req);
  if (RANK[principal.role] < RANK[role]) throw Errors.forbiddenRole([role, principal.role]);
  return principal;
}

/** Middleware: reads need `viewer`, every other method needs `admin`. */
export const requireWriteRoleForChanges: RequestHandler = function requireRoleForMethod(req, _res, next) {
  try {
    assertRole(req, req.method === 'GET' || req.method === 'HEAD' ? 'viewer' : 'admin');
    next();
  } catch (error) {
    next(error);
  }
};
