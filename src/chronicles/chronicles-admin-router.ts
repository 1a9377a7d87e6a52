// Admin endpoints of the Chronicles: an application's entries, newest first, with a cursor, filters, and one entry by id.
import { Router, type Request } from 'express';
import type { AdminServices } from '../admin/admin-services.js';
import { pathParam } from '../admin/request-body.js';
import { Errors } from '../errors/error-registry.js';
import type { ChronicleEntry } from './chronicle-entry.js';
import type { ChroniclesRecorder } from './chronicles-recorder.js';

const MAX_LIMIT = 500;

interface ListQuery {
  limit: number;
  cursor?: string;
  route?: string;
  model?: string;
  status?: number;
  from?: number;
  to?: number;
}

function timeParam(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const time = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (Number.isNaN(time)) throw Errors.validation([`The filter '${name}' must be an ISO 8601 time or epoch milliseconds.`], { param: name });
  return time;
}

function parseQuery(req: Request): ListQuery {
  const q = req.query;
  const text = (key: string): string | undefined => (typeof q[key] === 'string' ? (q[key] as string) : undefined);
  const limitText = text('limit');
  const limit = limitText === undefined ? 50 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw Errors.validation([`The parameter 'limit' must be an integer from 1 to ${MAX_LIMIT}.`], { param: 'limit' });
  }
  const statusText = text('status');
  const status = statusText === undefined ? undefined : Number(statusText);
  if (status !== undefined && !Number.isInteger(status)) throw Errors.validation(["The filter 'status' must be an HTTP status."], { param: 'status' });
  return { limit, cursor: text('cursor'), route: text('route'), model: text('model'), status, from: timeParam(q.from, 'from'), to: timeParam(q.to, 'to') };
}

function matches(entry: ChronicleEntry, query: ListQuery): boolean {
  if (query.route !== undefined && entry.route !== query.route) return false;
  if (query.model !== undefined && entry.model !== query.model) return false;
  if (query.status !== undefined && entry.status !== query.status) return false;
  const time = Date.parse(entry.timestamp);
  if (query.from !== undefined && time < query.from) return false;
  if (query.to !== undefined && time > query.to) return false;
  return true;
}

/**
 * `GET /applications/:appname/chronicles`, `GET /applications/:appname/chronicles/:id`, and the usage graph
 * `GET /applications/:appname/graph` (per tool: tool, server, requests, last_used, over the retained entries).
 */
export function chroniclesAdminRouter(services: AdminServices, recorder: ChroniclesRecorder): Router {
  const router = Router();

  router.get('/applications/:appname/chronicles', async function listChronicles(req, res) {
    const application = (await services.applications.get(pathParam(req, 'appname'))).name;
    const query = parseQuery(req);
    const newestFirst = (await recorder.entries(application)).reverse();
    let start = 0;
    if (query.cursor !== undefined) {
      const after = Buffer.from(query.cursor, 'base64url').toString('utf8');
      const index = newestFirst.findIndex((entry) => entry.id === after);
      if (index === -1) throw Errors.validation(['The cursor is not valid (or its entry was removed by retention).'], { param: 'cursor' });
      start = index + 1;
    }
    const page: ChronicleEntry[] = [];
    let index = start;
    for (; index < newestFirst.length && page.length < query.limit; index++) {
      const entry = newestFirst[index]!;
      if (matches(entry, query)) page.push(entry);
    }
    const more = newestFirst.slice(index).some((entry) => matches(entry, query));
    const last = page.at(-1);
    res.json({ data: page, next_cursor: more && last ? Buffer.from(last.id).toString('base64url') : null });
  });

  router.get('/applications/:appname/graph', async function usageGraph(req, res) {
    const application = (await services.applications.get(pathParam(req, 'appname'))).name;
    const nodes = new Map<string, { tool: string; server: string; requests: number; last_used: string }>();
    for (const entry of await recorder.entries(application)) {
      for (const invocation of entry.tool_invocations) {
        const key = `${invocation.registry}\u0000${invocation.tool}`;
        const node = nodes.get(key) ?? { tool: invocation.tool, server: invocation.registry, requests: 0, last_used: entry.timestamp };
        node.requests++;
        if (entry.timestamp > node.last_used) node.last_used = entry.timestamp;
        nodes.set(key, node);
      }
    }
    res.json([...nodes.values()].sort((a, b) => b.requests - a.requests || a.tool.localeCompare(b.tool)));
  });

  router.get('/applications/:appname/chronicles/:id', async function getChronicle(req, res) {
    const application = (await services.applications.get(pathParam(req, 'appname'))).name;
    const id = pathParam(req, 'id');
    const entry = (await recorder.entries(application)).find((candidate) => candidate.id === id);
    if (!entry) throw Errors.notFound(['request log entry', id]);
    res.json(entry);
  });
  return router;
}
