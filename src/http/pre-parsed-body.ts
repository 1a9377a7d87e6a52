// Limits on a body a host app's own parser (express.json()) already read: the gateway's size and nesting limits still hold.
import { Errors, type GatewayError } from '../errors/error-registry.js';

/** True when `value` nests objects and arrays deeper than `maxDepth`; walks with an explicit stack, never recursing. */
export function valueDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * The error for a body the host app parsed before the gateway saw it, or undefined when it is within the gateway's
 * limits: 413 when its `content-length` (or, for a chunked body, its JSON text) is over `limitBytes`, 400
 * `json_too_deep` when it nests deeper than `maxDepth`. A host parser with a larger limit thus cannot widen the gateway's.
 */
export function preParsedBodyError(req: { headers: Record<string, string | string[] | undefined>; body: unknown }, limitBytes: number, maxDepth: number): GatewayError | undefined {
  const declared = req.headers['content-length'];
  const size = declared !== undefined ? Number(declared) : req.headers['transfer-encoding'] !== undefined ? Buffer.byteLength(JSON.stringify(req.body) ?? '') : 0;
  if (size > limitBytes) return Errors.bodyTooLarge([String(limitBytes)]);
  if (valueDepthExceeds(req.body, maxDepth)) return Errors.jsonTooDeep([String(maxDepth)]);
  return undefined;
}
