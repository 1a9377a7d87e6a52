// Refuses a parsed JSON body that nests deeper than MAX_JSON_DEPTH, walking it without recursion before any recursive validator or clone sees it.
import type { RequestHandler } from 'express';
import { Errors } from '../errors/error-registry.js';
import { MAX_JSON_DEPTH } from '../http/json-depth.js';

/** True when objects and arrays in the value nest deeper than `maxDepth` (the value itself is depth 1). Iterative. */
export function valueDepthExceeds(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: at, depth } = stack.pop()!;
    if (at === null || typeof at !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Array.isArray(at) ? at : Object.values(at)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

/** Middleware after the JSON body parser: 400 `json_too_deep` when `req.body` nests deeper than `maxDepth`. */
export function refuseDeepBodies(maxDepth: number = MAX_JSON_DEPTH): RequestHandler {
  return function refuseDeepJsonBody(req, _res, next) {
    next(valueDepthExceeds(req.body, maxDepth) ? Errors.jsonTooDeep([maxDepth]) : undefined);
  };
}
