// Reads the parsed JSON object body and path parameters of an admin request, with a 400 for a bad body (queries: query-parameters.ts).
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
