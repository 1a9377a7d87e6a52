// Reads an admin GET's query strictly: only the endpoint's own parameters, each once, as plain text; anything else is a 400 naming it.
import { parse } from 'node:querystring';
import type { Request, RequestHandler } from 'express';
import { Errors } from '../errors/error-registry.js';

/** The query of one request: each known parameter that was given, as its text. */
export type QueryReader<N extends string> = (req: Request) => Partial<Record<N, string>>;

/**
 * Builds, once per endpoint, the reader of its query. The query is read from the request URL itself, as Express's
 * default parser reads it, so the host application's `query parser` setting cannot change what is checked (with
 * `false`, every filter would be dropped). An unknown name (`?application=`), a bracketed one (`group_by[]`,
 * `from[a]`) and a repeated one (`?route=a&route=b`) are each a 400 `invalid_value` with the name in `param`:
 * a parameter is never silently ignored.
 * @example
 * const readUsageQuery = queryReader(['group_by', 'from', 'to']);
 * const { group_by } = readUsageQuery(req);
 */
export function queryReader<const N extends string>(names: readonly N[]): QueryReader<N> {
  const known = new Set<string>(names);
  const takes = names.length === 0 ? 'no query parameters' : names.map((name) => `'${name}'`).join(', ');
  return function readQuery(req: Request): Partial<Record<N, string>> {
    const at = req.url.indexOf('?');
    // maxKeys 0: no silent cut at 1,000 names; the URL is bounded by the HTTP parser's header limit.
    const values = parse(at === -1 ? '' : req.url.slice(at + 1), '&', '=', { maxKeys: 0 });
    const query: Partial<Record<N, string>> = {};
    for (const [name, value] of Object.entries(values)) {
      if (/[[\]]/.test(name)) {
        throw Errors.validation([`The parameter '${name}' has brackets; give each parameter once, by its plain name.`], { param: name });
      }
      if (!known.has(name)) throw Errors.validation([`The parameter '${name}' is not known here; this endpoint takes ${takes}.`], { param: name });
      if (typeof value !== 'string') throw Errors.validation([`The parameter '${name}' may be given once.`], { param: name });
      query[name as N] = value;
    }
    return query;
  };
}

/** An endpoint that reads its query with a {@link queryReader}: its method and its path under the router's mount. */
export interface QueryEndpoint {
  method: string;
  path: RegExp;
}

/**
 * Refuses a query string on every request but those of `readers` (which check their own parameters), so no
 * parameter is silently ignored: `GET /v1/admin/applications?name=x` would otherwise list every application, and
 * `DELETE …?force=true` delete as if it were not there. An empty query (a lone `?`) is no parameter.
 * @example
 * admin.use(refuseUnreadQuery([{ method: 'GET', path: /^\/usage$/ }]));
 */
export function refuseUnreadQuery(readers: readonly QueryEndpoint[]): RequestHandler {
  const noParameters = queryReader([]);
  return function refuseQuery(req, _res, next) {
    const at = req.url.indexOf('?');
    if (at !== -1 && at < req.url.length - 1 && !readers.some((reader) => (reader.method === req.method || (req.method === 'HEAD' && reader.method === 'GET')) && reader.path.test(req.path))) noParameters(req);
    next();
  };
}
