// Reads the parsed JSON object body, path parameters and query parameters of an admin request, with a 400 for bad ones.
import type { Request } from 'express';
import { Errors } from '../errors/error-registry.js';

/** The request's JSON object body; a missing body is a 400. */
export function objectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw Errors.bodyNotObject();
  return body as Record<string, unknown>;
}

/** A path parameter as a string. */
export function pathParam(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/** A query parameter given once, as text; undefined when absent; 400 naming it when repeated (`?a=1&a=2`). */
export function queryText(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw Errors.validation([`The parameter '${name}' may be given once.`], { param: name });
  return value;
}
