// Admin endpoints of the Chronicles: an application's entries, newest first, page by page with a cursor and filters, one entry by id, and the usage graph.
import { Router, type Request } from 'express';
import type { AdminServices } from '../admin/admin-services.js';
import { queryReader } from '../admin/query-parameters.js';
import { pathParam } from '../admin/request-body.js';
import { Errors } from '../errors/error-registry.js';
import type { ChronicleEntry } from './chronicle-entry.js';
import type { ChroniclesRecorder } from './chronicles-recorder.js';
import { StalePositionError } from './log-pages.js';
import type { RetainedEntry } from './retained-entries.js';
import { sortedNodes } from './usage-graph.js';

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

const readListQuery = queryReader(['limit', 'cursor', 'route', 'model', 'status', 'from', 'to']);

function timeParam(text: string | undefined, name: 'from' | 'to'): number | undefined {
  if (text === undefined) return undefined;
  const time = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (Number.isNaN(time)) throw Errors.validation([`The filter '${name}' must be an ISO 8601 time or epoch milliseconds.`], { param: name });
  return time;
}

/** The list's query: only its own parameters, each at most once, `limit` and `status` in decimal digits, `from` not after `to`. */
function parseQuery(req: Request): ListQuery {
  const given = readListQuery(req);
  const limit = given.limit === undefined ? 50 : /^\d{1,4}$/.test(given.limit) ? Number(given.limit) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw Errors.validation([`The parameter 'limit' must be an integer from 1 to ${MAX_LIMIT}.`], { param: 'limit' });
  }
  const status = given.status === undefined ? undefined : /^[1-5]\d\d$/.test(given.status) ? Number(given.status) : NaN;
  if (Number.isNaN(status)) throw Errors.validation(["The filter 'status' must be an HTTP status (100 to 599)."], { param: 'status' });
  const from = timeParam(given.from, 'from');
  const to = timeParam(given.to, 'to');
  if (from !== undefined && to !== undefined && from > to) throw Errors.validation(["The filter 'from' must not be after 'to'."], { param: 'from' });
  return { limit, cursor: given.cursor, route: given.route, model: given.model, status, from, to };
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

/** What a cursor holds: the position of the last entry answered, its id, and how many retained entries precede it. */
interface Cursor {
  position: number;
  id: string;
  index: number;
}

const invalidCursor = () => Errors.validation(['The cursor is not valid (or its entry was removed by retention).'], { param: 'cursor' });

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.position, cursor.id, cursor.index])).toString('base64url');
}

function decodeCursor(text: string): Cursor {
  try {
    const [position, id, index] = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown[];
    if (Number.isSafeInteger(position) && typeof id === 'string' && Number.isSafeInteger(index) && (index as number) >= 0) {
      return { position: position as number, id, index: index as number };
    }
  } catch {
    // answered below
  }
  throw invalidCursor();
}

/**
 * `GET /applications/:appname/chronicles`, `GET /applications/:appname/chronicles/:id`, and the usage graph
 * `GET /applications/:appname/graph` (per tool: tool, server, requests, last_used, kept as a running aggregate).
 * Lists read the log newest first from the cursor's position, a few entries at a time, and stop once the page
 * and one more match are found: memory depends on the page, not on the log.
 */
export function chroniclesAdminRouter(services: AdminServices, recorder: ChroniclesRecorder): Router {
  const router = Router();

  router.get('/applications/:appname/chronicles', async function listChronicles(req, res) {
    const application = (await services.applications.get(pathParam(req, 'appname'))).name;
    const query = parseQuery(req);
    const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const page: RetainedEntry[] = [];
    let more = false;
    const match = { route: query.route, model: query.model, status: query.status };
    // On an adapter with indexed reads (PostgreSQL) only matching entries come back, so the cursor's own entry may not.
    const indexed = recorder.indexed(match);
    let atCursor = cursor !== undefined;
    try {
      for await (const record of recorder.newestFirst(application, cursor?.position, cursor?.index, match)) {
        if (atCursor) {
          atCursor = false;
          if (record.position === cursor!.position) {
            if (record.value.id !== cursor!.id) throw invalidCursor();
            continue;
          }
          if (!indexed) throw invalidCursor();
        }
        if (!matches(record.value, query)) continue;
        if (page.length === query.limit) {
          more = true;
          break;
        }
        page.push(record);
      }
    } catch (error) {
      if (error instanceof StalePositionError) throw invalidCursor();
      throw error;
    }
    if (atCursor && !indexed) throw invalidCursor();
    const last = page.at(-1);
    res.json({
      data: page.map((record) => record.value),
      next_cursor: more && last ? encodeCursor({ position: last.position, id: last.value.id, index: last.index }) : null,
    });
  });

  router.get('/applications/:appname/graph', async function usageGraph(req, res) {
    const application = (await services.applications.get(pathParam(req, 'appname'))).name;
    res.json(sortedNodes(await recorder.graph(application)));
  });

  router.get('/applications/:appname/chronicles/:id', async function getChronicle(req, res) {
    const application = (await services.applications.get(pathParam(req, 'appname'))).name;
    const id = pathParam(req, 'id');
    const entry = await recorder.find(application, id);
    if (!entry) throw Errors.notFound(['request log entry', id]);
    res.json(entry);
  });
  return router;
}
