// GET /v1/responses/:id: finished responses kept for their own application, with known secrets scrubbed before they are stored.
import type { Request, RequestHandler } from 'express';
import type { DeveloperKeyStore } from '../admin/developer-key-store.js';
import { requireEnabledApplication } from '../auth/application-gate.js';
import { identifyCaller } from '../auth/caller-identity.js';
import { requestSecrets } from '../chronicles/chronicle-entry.js';
import type { GatewayLogger } from '../errors/error-middleware.js';
import { Errors } from '../errors/error-registry.js';
import { requestIdOf } from '../observability/request-id.js';
import { scrubSecretsDeep } from '../secrets/secret-scrubber.js';
import type { Storage } from '../storage/storage-facade.js';
import type { ResponseStateStore } from './response-store.js';
import type { ResponsesRequest } from './responses-types.js';

/** What storing and reading response objects needs. */
export interface StoredResponsesDeps {
  store: ResponseStateStore;
  developerKeys: DeveloperKeyStore;
  /** Where the caller's application is looked up (a disabled one is refused). */
  storage: Storage;
  /** Every stored provider key and registry token, scrubbed from the response before it is kept. */
  secrets?: () => Promise<string[]>;
  logger?: GatewayLogger;
}

/** The credentials of the request itself: its developer key or Bearer, and the header values of its MCP tools. */
function secretsOf(req: Request, request: ResponsesRequest): string[] {
  const headers = (request.tools ?? []).flatMap((tool) => (tool.type === 'mcp' && tool.headers ? Object.values(tool.headers) : []));
  return [...requestSecrets(req), ...headers.flatMap((value) => [value, value.replace(/^\S+\s+/, '')])];
}

/**
 * Keeps a finished response for GET /v1/responses/:id, unless the request set `store: false`. Known secrets are
 * scrubbed first. A store that cannot be reached is logged, never turned into a failure of the answered request.
 */
export async function keepResponse(deps: StoredResponsesDeps, req: Request, request: ResponsesRequest, application: string, response: Record<string, unknown>): Promise<void> {
  if ((request as { store?: unknown }).store === false) return;
  try {
    const secrets = [...(await deps.secrets?.()) ?? [], ...secretsOf(req, request)];
    await deps.store.saveObject(String(response.id), application, scrubSecretsDeep(response, secrets));
  } catch (error) {
    deps.logger?.warn('a response could not be kept for GET /v1/responses/:id', { request_id: requestIdOf(req), error: (error as Error).message });
  }
}

/**
 * The GET /v1/responses/:id handler: the stored response of the caller's application; 404 `not_found` when it is
 * unknown, expired, was not stored, or belongs to another application (never 403, so ids of others are not disclosed);
 * 403 `application_disabled` when the caller's application is disabled.
 */
export function retrieveResponseHandler(deps: StoredResponsesDeps): RequestHandler {
  return async function retrieveResponse(req, res) {
    const caller = await identifyCaller(req, deps.developerKeys, { bearer: true });
    if (caller.kind !== 'application') throw Errors.invalidApiKey(['X-Gateway-Apikey or Authorization']);
    await requireEnabledApplication(deps.storage, caller.application);
    const id = String((req.params as { id: string }).id);
    const response = await deps.store.loadObject(id, caller.application);
    if (!response) throw Errors.notFound(['response', JSON.stringify(id.slice(0, 200))]);
    res.json(response);
  };
}
