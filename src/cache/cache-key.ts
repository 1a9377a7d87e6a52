// The response cache key: a SHA-256 over the normalised request (endpoint, route, body without transport fields), namespaced by application incarnation.
import { createHash } from 'node:crypto';
import type { ModelRequestContext } from '../traffic/model-request-context.js';

/**
 * Body fields left out of the key: they change how an answer travels or is attributed, not what it says.
 * `stream` and `stream_options` (a streamed and a JSON request share one entry), `user` and `safety_identifier`
 * (end-user ids for the provider's abuse monitoring), `metadata` and `store` (the provider's own storage of the
 * exchange), `prompt_cache_key` and `prompt_cache_retention` (the provider's prompt cache).
 */
export const KEY_EXCLUDED_FIELDS: ReadonlySet<string> = new Set([
  'stream',
  'stream_options',
  'user',
  'safety_identifier',
  'metadata',
  'store',
  'prompt_cache_key',
  'prompt_cache_retention',
]);

/**
 * Writes `value` as JSON with object keys in sorted order, so key order never changes the key. Every own key counts,
 * `__proto__` included (JSON.parse keeps it as an own key; it is read as one and never assigned anywhere).
 */
function writeCanonical(value: unknown, out: string[]): void {
  if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(',');
      writeCanonical(item === undefined ? null : item, out);
    });
    out.push(']');
    return;
  }
  if (value !== null && typeof value === 'object') {
    writeObject(value as Record<string, unknown>, out);
    return;
  }
  out.push(JSON.stringify(value) ?? 'null');
}

/** Writes an object's own keys (but those in `skip`) in sorted order, each with its canonical value. */
function writeObject(value: Record<string, unknown>, out: string[], skip?: ReadonlySet<string>): void {
  out.push('{');
  let first = true;
  for (const key of Object.keys(value).sort()) {
    if (skip?.has(key)) continue;
    const item = value[key];
    if (item === undefined) continue;
    out.push(first ? '' : ',', JSON.stringify(key), ':');
    first = false;
    writeCanonical(item, out);
  }
  out.push('}');
}

/**
 * The request body as the key sees it: every own field but {@link KEY_EXCLUDED_FIELDS}, as canonical JSON. Written
 * from the body itself, with no copy: a copy made by assignment would turn a top-level `__proto__` into the copy's
 * prototype and drop it from the key.
 */
export function normalisedBody(body: Record<string, unknown>): string {
  const out: string[] = [];
  writeObject(body, out, KEY_EXCLUDED_FIELDS);
  return out.join('');
}

/**
 * The cache key of a resolved model request: `<application>:<sha256 hex>`, the hash over the application's incarnation
 * (its `created_at`), the endpoint (POST /v1/messages apart from chat, and by its client's betas), the route name, the route's models (so changing them keys new entries) and the
 * normalised body (after input guardrails' transforms, as it would be sent upstream). Two applications never share a
 * key, so one never reads the other's answers; nor do two incarnations of one name, so an application deleted and
 * re-created is never served the old one's answers (those are left to their TTL and the store's bound).
 */
export function responseCacheKey(context: Pick<ModelRequestContext, 'application' | 'incarnation' | 'endpoint' | 'routeName' | 'route' | 'body' | 'clientFormat' | 'clientBetas'>): string {
  const models: string[] = [];
  writeCanonical(context.route?.models ?? null, models);
  // POST /v1/messages keys apart from chat: its translated body carries Anthropic's members, read only for its clients.
  const endpoint = context.clientFormat === 'anthropic' ? 'messages' : context.endpoint;
  // A Messages client's betas may change the answer (thinking between tool calls): answers under other betas are apart.
  const betas = context.clientBetas?.length ? `${[...context.clientBetas].sort().join(',')}\n` : '';
  const hash = createHash('sha256')
    .update(`${context.incarnation}\n${endpoint}\n${context.routeName}\n${models.join('')}\n${betas}`)
    .update(normalisedBody(context.body))
    .digest('hex');
  return `${context.application}:${hash}`;
}
