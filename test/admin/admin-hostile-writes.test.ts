// Hostile-input sweep of every admin write over real HTTP: each refusal a 4xx in the error shape naming the field, nothing stored, no prototype touched, the gateway still serving.
import assert from 'node:assert/strict';
import http from 'node:http';
import { memoryStorage, type StorageAdapter } from '../../src/index.js';
import { MAX_MODEL_WEIGHT } from '../../src/admin/schemas/model-config-schema.js';
import { MAX_SECRET_LENGTH } from '../../src/validation/header-safe-text.js';
import { startFakeMcpServer, type FakeMcpServer } from '../helpers/fake-mcp-server.js';
import { listenOnLoopback, type LoopbackServer } from '../helpers/loopback-server.js';
import { createTestGateway, TEST_KEYS, type TestGateway } from '../helpers/test-gateway.js';
import { seedAll } from './admin-seed.js';

const MB = 1024 * 1024;
/** A string under the 1 MB body limit, so it reaches validation. */
const BIG = 'x'.repeat(MB - 8 * 1024);
/** What a pollution attempt would plant. */
const PLANTED = { polluted: true, isAdmin: true };
/** A tool server that refuses connections at once (port 9 on loopback has no listener). */
const OFFLINE_URL = 'http://127.0.0.1:9/mcp';
/** Wrong or hostile values, put in each top-level field in turn (no `false`: valid for every boolean). */
const WRONG: unknown[] = [null, 0, -1, 1.5, 1e308, true, '', 'x', '\u0000', [], [1, 'a'], {}, { nested: { deep: [1] } }, { toString: 1, valueOf: 1 }, BIG];
/** The same kinds, fewer of each, for nested fields (the top-level ones already meet every value). */
const WRONG_NESTED: unknown[] = [null, 0, 1.5, 1e308, true, 'x', 'x'.repeat(2000), [1, 'a'], {}, { toString: 1, valueOf: 1 }];

type Accepts = (value: unknown) => boolean;
const none: Accepts = () => false;
const isNull: Accepts = (v) => v === null;
const isString: Accepts = (v) => typeof v === 'string';
const isText: Accepts = (v) => typeof v === 'string' && v !== '';
const isTrue: Accepts = (v) => v === true;
const isObject: Accepts = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isEmptyObject: Accepts = (v) => isObject(v) && Object.keys(v as object).length === 0;
const isEmptyArray: Accepts = (v) => Array.isArray(v) && v.length === 0;
/** A route rate: 0 to 1,000,000 requests per second. */
const isRate: Accepts = (v) => typeof v === 'number' && v >= 0 && v <= 1_000_000;
const isXs: Accepts = (v) => typeof v === 'string' && /^x+$/.test(v);
const isUnitNumber: Accepts = (v) => typeof v === 'number' && v >= 0 && v <= 1;
const isWeight: Accepts = (v) => typeof v === 'number' && v >= 0 && v <= MAX_MODEL_WEIGHT;
/** A secret sent in a header: at most MAX_SECRET_LENGTH characters, none a control character or beyond U+00FF. */
const isHeaderSafe: Accepts = (v) => typeof v === 'string' && v.length <= MAX_SECRET_LENGTH && /^[\u0020-\u007e\u00a0-\u00ff]*$/.test(v);
const isSecret: Accepts = (v) => isHeaderSafe(v) && v !== '';
/** A short text field (a type, group, organization, header or query parameter name): at most 256 characters. */
const isShort = (accepts: Accepts): Accepts => (v) => accepts(v) && (v as string).length <= 256;
/** A description: at most 1,024 characters. */
const isDescription: Accepts = (v) => isString(v) && (v as string).length <= 1024;
/** A top-level null clears an optional field of a stored resource (answers show unset fields as null). */
const orNull = (accepts: Accepts): Accepts => (v) => v === null || accepts(v);

/** One admin write: where it goes, a valid body (fresh per probe, so creates never collide), and what each field accepts. */
interface WriteCase {
  name: string;
  method: 'POST' | 'PUT';
  path: (n: number) => string;
  body: (n: number) => Record<string, unknown>;
  /** Dotted fields (`config.settings.retries`, `models.0.weight`) and the wrong values each accepts. */
  fields: Record<string, Accepts>;
  namespace?: boolean;
}

/** A deep copy of `body` with `value` at the dotted `field`, defined as an own key whatever its name. */
function withField(body: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  const parts = field.split('.');
  let holder = copy as Record<string, unknown>;
  for (const part of parts.slice(0, -1)) holder = holder[part] as Record<string, unknown>;
  Object.defineProperty(holder, parts.at(-1)!, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}

/** The error param of a field given as `models.0.weight`: `models[0].weight`. */
const paramOf = (field: string): string => field.replace(/\.(\d+)(?=\.|$)/g, '[$1]');

/** Every object inside `value` (the root included), as dotted paths. */
function objectPaths(value: unknown, path = ''): string[] {
  if (value === null || typeof value !== 'object') return [];
  const here = Array.isArray(value) ? [] : [path];
  return [...here, ...Object.entries(value).flatMap(([key, item]) => objectPaths(item, path === '' ? key : `${path}.${key}`))];
}

/** Adapter methods that write. */
const WRITE_METHODS = new Set(['set', 'delete', 'batch', 'append', 'appendGuarded', 'appendJson', 'addCounts', 'deleteCounts', 'addCounters', 'deleteCounters', 'rewriteLog', 'trimLog', 'trimLogBefore', 'deleteLog']);

/** The memory adapter with each write noted (method and key), so a refused request can be shown to have written nothing. */
function notingWrites(inner: StorageAdapter, writes: string[]): StorageAdapter {
  return new Proxy(inner, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!WRITE_METHODS.has(String(property))) return method.bind(target);
      return (...args: unknown[]) => {
        writes.push(`${String(property)} ${typeof args[0] === 'string' ? args[0] : JSON.stringify(args[0])?.slice(0, 120)}`);
        return method.apply(target, args);
      };
    },
  });
}

/** Names for path parameters: dot segments (encoded too), NUL, separators, case and Unicode variants, prototype names, invalid UTF-8, a long name. */
const HOSTILE_NAMES = ['..', '%2e%2e', '%2E%2E%2F%2E%2E', '%2e', '%00', 'a%00b', 'shop%2F..', 'Shop', 'cafe%CC%81', '__proto__', 'constructor', '%ED%A0%80', '%', 'x'.repeat(4000)];

describe('Admin API hostile writes', function () {
  this.timeout(120_000);
  let t: TestGateway;
  const writes: string[] = [];
  let mcp: FakeMcpServer;
  let server: LoopbackServer;
  let developerKeyId: string;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const prototypeNames = (): string => [Object.prototype, Array.prototype, Function.prototype, String.prototype].map((p) => Object.getOwnPropertyNames(p).sort().join()).join('|');
  let cleanPrototypes: string;

  /** Sends a request with the path exactly as given (no URL normalisation of `..` or `%2e%2e`). */
  function send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; json: unknown }> {
    return new Promise((resolve, reject) => {
      const all: Record<string, string | number> = { 'x-api-key': TEST_KEYS.superAdmin, ...headers };
      if (body !== undefined) {
        all['content-type'] ??= 'application/json';
        all['content-length'] = Buffer.byteLength(body);
      }
      const req = http.request({ host: '127.0.0.1', port: server.port, method, path, headers: all, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, text, json });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** One hostile request; `accepts` marks an input the endpoint may take (2xx). `param`: the field a 400 must name. */
  interface Probe {
    name: string;
    method: string;
    path: string;
    body?: string;
    headers?: Record<string, string>;
    accepts?: boolean;
    param?: string;
  }

  /**
   * Sends each probe, and collects every failure: a 5xx, a 2xx not accepted, an error outside the one shape, a 400
   * not naming the field, a refused request that wrote to storage, or a changed prototype.
   */
  async function sweep(probes: Probe[]): Promise<void> {
    const failures: string[] = [];
    for (const probe of probes) {
      const before = writes.length;
      const res = await send(probe.method, probe.path, probe.body, probe.headers);
      const label = `${probe.name}: ${res.status} ${res.text.slice(0, 160)}`;
      if (prototypeNames() !== cleanPrototypes || ({} as Record<string, unknown>).polluted !== undefined) failures.push(`${label}: a prototype changed`);
      if (res.status >= 200 && res.status < 300) {
        if (probe.accepts !== true) failures.push(`${label}: accepted`);
        continue;
      }
      if (res.status < 400 || res.status >= 500) {
        failures.push(label);
        continue;
      }
      const error = (res.json as { error?: Record<string, unknown> } | undefined)?.error;
      if (typeof error?.message !== 'string' || typeof error.type !== 'string' || !('code' in error) || !('param' in error)) failures.push(`${label}: outside the error shape`);
      else if (probe.param !== undefined && res.status === 400 && error.code === 'invalid_value' && !String(error.param).startsWith(probe.param)) failures.push(`${label}: param ${String(error.param)}, not ${probe.param}`);
      if (writes.length !== before) failures.push(`${label}: wrote ${writes.slice(before).join(', ')}`);
    }
    assert.deepEqual(failures, [], `${failures.length} of ${probes.length} probes failed`);
    // The gateway still serves.
    assert.equal((await send('GET', '/v1/admin/applications/shop')).status, 200);
  }

  before(async () => {
    cleanPrototypes = prototypeNames();
    t = await createTestGateway({ storage: notingWrites(memoryStorage(), writes) });
    developerKeyId = (await seedAll(t.app)).developerKeyId;
    server = await listenOnLoopback(t.app);
    mcp = await startFakeMcpServer();
    const created = await send('POST', '/v1/admin/mcp/registries', JSON.stringify({ name: 'tools', url: mcp.url }));
    assert.equal(created.status, 201, created.text);
    // A registry whose tool server is down (created without pins): its writes need no tool listing, so they are quick.
    const offline = await send('POST', '/v1/admin/mcp/registries', JSON.stringify({ name: 'offline', url: OFFLINE_URL }));
    assert.equal(offline.status, 201, offline.text);
  });
  after(async () => {
    agent.destroy();
    server?.close();
    await t?.close();
    await mcp?.close();
  });

  const model = { name: 'gpt-4o-mini', provider: 'openai-main' };
  const modelFields = (prefix: string, provider: Accepts): Record<string, Accepts> => ({
    [`${prefix}.name`]: isShort(isText),
    [`${prefix}.provider`]: provider,
    [`${prefix}.weight`]: isWeight,
    [`${prefix}.fallback_enabled`]: isTrue,
    [`${prefix}.fallback_codes`]: isEmptyArray,
  });
  const CASES = (): WriteCase[] => [
    {
      name: 'POST /templates/:name',
      method: 'POST',
      path: (n) => `/v1/admin/templates/tp-${n}`,
      body: () => ({ type: 'dlp', description: 'd', config: { info_types: ['EMAIL_ADDRESS'] }, models: [model] }),
      fields: { name: isNull, type: orNull(isShort(isString)), description: orNull(isDescription), enabled: orNull(isTrue), config: orNull(isObject), models: orNull(isEmptyArray), 'config.info_types': () => true, ...modelFields('models.0', isShort(isText)) },
    },
    {
      name: 'PUT /templates/:name',
      method: 'PUT',
      path: () => '/v1/admin/templates/inspect-pii',
      body: () => ({ description: 'd', config: {}, models: [model] }),
      fields: { name: isNull, type: orNull(isShort(isString)), description: orNull(isDescription), enabled: orNull(isTrue), config: orNull(isObject), models: orNull(isEmptyArray), ...modelFields('models.0', isShort(isText)) },
    },
    {
      name: 'POST /gateways',
      method: 'POST',
      path: () => '/v1/admin/gateways',
      body: (n) => ({ name: `gw-${n}`, type: 'standard', config: { region: 'eu' } }),
      fields: { name: (v) => v === 'x', gateway_id: orNull(isShort(isText)), type: orNull(isShort(isString)), enabled: orNull(isTrue), config: orNull(isObject), 'config.region': () => true },
    },
    {
      name: 'PUT /gateways/:name',
      method: 'PUT',
      path: () => '/v1/admin/gateways/edge',
      body: () => ({ type: 'standard', config: {} }),
      fields: { name: isNull, gateway_id: orNull(isShort(isText)), type: orNull(isShort(isString)), enabled: orNull(isTrue), config: orNull(isObject) },
    },
    {
      name: 'POST /providers',
      method: 'POST',
      path: () => '/v1/admin/providers',
      body: (n) => ({ name: `pr-${n}`, type: 'openai', config: { api_base: 'http://127.0.0.1:9/v1', models: ['m'] }, api_keys: [{ api_key: 'sk-hostile-0123456789', header_key: 'api-key' }] }),
      fields: {
        name: (v) => v === 'x', type: none, enabled: orNull(isTrue), vault_enabled: orNull(isTrue), config: orNull(isObject), api_keys: orNull(isEmptyArray),
        'config.api_base': none, 'config.models': isEmptyArray,
        'api_keys.0.api_key': isSecret, 'api_keys.0.header_key': orNull(isShort(isXs)), 'api_keys.0.enabled': orNull(isTrue), 'api_keys.0.api_key_secret_name': (v) => v === 'x' || v === null,
      },
    },
    {
      name: 'PUT /providers/:name',
      method: 'PUT',
      path: () => '/v1/admin/providers/openai-main',
      body: () => ({ enabled: true, config: { models: ['gpt-4o-mini'] } }),
      fields: { name: isNull, type: isNull, enabled: orNull(isTrue), vault_enabled: orNull(isTrue), config: orNull(isObject), api_keys: orNull(isEmptyArray), 'config.models': isEmptyArray },
    },
    {
      name: 'POST /providers/:name/keys/:key',
      method: 'POST',
      path: (n) => `/v1/admin/providers/openai-main/keys/k-${n}`,
      namespace: true,
      body: () => ({ api_key: 'sk-hostile-0123456789', header_key: 'api-key', group: 'g' }),
      fields: {
        api_key: isSecret, api_key_secret_key: orNull(isHeaderSafe), api_key_secret_key_gateway: orNull(isShort(isString)), header_key: orNull(isShort(isXs)), query_param_key: orNull(isShort(isText)),
        enabled: orNull(isTrue), group: orNull(isShort(isString)), organization: orNull(isShort(isString)), namespace: isNull, provider_name: isNull, api_key_secret_name: isNull,
      },
    },
    {
      name: 'PUT /providers/:name/keys/:key',
      method: 'PUT',
      path: () => '/v1/admin/providers/openai-main/keys/team-key',
      namespace: true,
      body: () => ({ enabled: true, group: 'g' }),
      fields: { api_key: orNull(isSecret), header_key: orNull(isShort(isXs)), enabled: orNull(isTrue), group: orNull(isShort(isString)), namespace: isNull, provider_name: isNull, api_key_secret_name: isNull },
    },
    {
      name: 'POST /routes',
      method: 'POST',
      path: () => '/v1/admin/routes',
      body: (n) => ({
        name: `rt-${n}`, type: 'chat', models: [model],
        config: { settings: { rate_limit: 5, retries: 1 }, team: { owner: 'o' }, policy: { enabled: false, processors: {} }, cache: { ttl_seconds: 60 } },
      }),
      fields: {
        name: (v) => v === 'x', type: isShort(isText), models: none, enabled: orNull(isTrue), config: orNull(isObject),
        'config.settings.rate_limit': isRate, 'config.settings.retries': (v) => v === 0, 'config.settings.timeout_ms': none, 'config.team.owner': isShort(isString),
        'config.policy': isEmptyObject, 'config.policy.mode': none, 'config.policy.processors': isEmptyObject, 'config.policy.timeout_ms': none, 'config.cache.ttl_seconds': none,
        ...modelFields('models.0', (v) => v === 'x'),
      },
    },
    {
      name: 'PUT /routes/:name',
      method: 'PUT',
      path: () => '/v1/admin/routes/chat-route',
      body: () => ({ enabled: true, config: { settings: { retries: 2 }, policy: { enabled: false } } }),
      fields: { name: isNull, type: isShort(isText), models: none, enabled: orNull(isTrue), config: orNull(isObject), 'config.settings.retries': (v) => v === 0, 'config.policy': isEmptyObject, 'config.policy.enabled': isTrue },
    },
    {
      name: 'POST /applications',
      method: 'POST',
      path: () => '/v1/admin/applications',
      body: (n) => ({ name: `app-${n}`, description: 'd', budget: { amount_usd: 10, period: 'day' }, limits: { requests_per_minute: 10 } }),
      fields: {
        name: (v) => v === 'x', description: orNull(isDescription), enabled: orNull(isTrue), budget: isNull, limits: isNull,
        'budget.amount_usd': (v) => v === 1.5, 'budget.period': none, 'budget.alert_threshold': none, 'limits.requests_per_minute': none, 'limits.tokens_per_minute': none,
      },
    },
    {
      name: 'PUT /applications/:name',
      method: 'PUT',
      path: () => '/v1/admin/applications/shop',
      body: () => ({ description: 'd', budget: { amount_usd: 10, period: 'week' } }),
      fields: { name: isNull, description: orNull(isDescription), enabled: orNull(isTrue), budget: isNull, limits: isNull, 'budget.amount_usd': (v) => v === 1.5, 'budget.period': none },
    },
    {
      name: 'POST /applications/:name/keys',
      method: 'POST',
      path: () => '/v1/admin/applications/shop/keys',
      body: () => ({ name: 'k', limits: { tokens_per_minute: 1000 } }),
      fields: { name: (v) => typeof v === 'string' && v.length <= 200, budget: none, limits: none, 'limits.tokens_per_minute': none },
    },
    {
      name: 'PUT /applications/:name/keys/:id',
      method: 'PUT',
      path: () => `/v1/admin/applications/shop/keys/${developerKeyId}`,
      body: () => ({ name: 'k', budget: { amount_usd: 5, period: 'month' } }),
      fields: { name: (v) => v === null || (typeof v === 'string' && v.length <= 200), budget: isNull, limits: isNull, 'budget.period': none },
    },
    {
      name: 'PUT /applications/:name/policy',
      method: 'PUT',
      path: () => '/v1/admin/applications/shop/policy',
      body: () => ({ mode: 'inspect', processors: { dlp_cloud: { threshold: 0.5, apply_to: ['input'] } }, dlp: { strategy: 'mask', info_types: ['EMAIL_ADDRESS'] } }),
      fields: {
        mode: none, processors: isEmptyObject, dlp: isEmptyObject, on_error: none, timeout_ms: none,
        'processors.dlp_cloud': isEmptyObject, 'processors.dlp_cloud.threshold': isUnitNumber, 'processors.dlp_cloud.apply_to': none, 'processors.dlp_cloud.enabled': isTrue,
        'dlp.strategy': none, 'dlp.info_types': isEmptyArray,
      },
    },
    {
      name: 'PUT /prices/:type',
      method: 'PUT',
      path: () => '/v1/admin/prices/openai',
      body: () => ({ models: { 'gpt-hostile': { input: 1, output: 2 } } }),
      fields: { models: none, 'models.gpt-hostile': isNull, 'models.gpt-hostile.input': (v) => v === 0 || v === 1.5, 'models.gpt-hostile.output': (v) => v === 0 || v === 1.5, 'models.gpt-hostile.cached_input': (v) => v === 0 || v === 1.5 },
    },
    {
      name: 'POST /mcp/registries',
      method: 'POST',
      path: () => '/v1/admin/mcp/registries',
      body: (n) => ({ name: `reg-${n}`, url: OFFLINE_URL, description: 'd' }),
      fields: { name: (v) => v === 'x', url: none, description: orNull(isDescription), authorization_token: orNull(isSecret), request_url: orNull((v) => isString(v) && (v as string).length <= 2048) },
    },
    {
      name: 'PUT /mcp/registries/:name',
      method: 'PUT',
      path: () => '/v1/admin/mcp/registries/offline',
      body: () => ({ description: 'd' }),
      fields: { name: isNull, url: isNull, description: orNull(isDescription), authorization_token: orNull(isSecret) },
    },
    {
      name: 'PUT /mcp/registries/:name/tools/:tool',
      method: 'PUT',
      path: () => '/v1/admin/mcp/registries/tools/tools/add',
      body: () => ({ enabled: true }),
      fields: { enabled: isTrue },
    },
    {
      name: 'PUT /mcp/registries/:name/policies',
      method: 'PUT',
      path: () => '/v1/admin/mcp/registries/tools/policies',
      body: () => ({ data_protection: { mode: 'inspect', action: 'redact', info_types: ['EMAIL_ADDRESS'] }, security_filters: { enabled: true } }),
      fields: {
        malicious_instruction_injection: isEmptyObject, tool_injection: isEmptyObject, data_protection: isEmptyObject, security_filters: isEmptyObject, on_error: none, timeout_ms: none,
        'data_protection.mode': none, 'data_protection.action': none, 'data_protection.threshold': isUnitNumber, 'data_protection.info_types': isEmptyArray, 'security_filters.enabled': isTrue,
      },
    },
  ];

  let counter = 0;
  const headersOf = (c: WriteCase): Record<string, string> => (c.namespace ? { 'x-gateway-namespace': 'team-a' } : {});

  for (const c of CASES().map((entry) => entry.name)) {
    it(`${c}: wrong types, nulls, 1 MB strings, odd bodies, duplicate keys and prototype keys`, async () => {
      const w = CASES().find((entry) => entry.name === c)!;
      const probe = (name: string, body: string | undefined, extra: Partial<Probe> = {}): Probe => {
        const n = ++counter;
        return { name: `${w.name} ${name}`, method: w.method, path: w.path(n), body, headers: headersOf(w), ...extra };
      };
      const valid = (): Record<string, unknown> => JSON.parse(JSON.stringify(w.body(counter + 1))) as Record<string, unknown>;
      const probes: Probe[] = [
        // The valid body is accepted: the sweep's rejections are about the hostile parts only.
        probe('the valid body', JSON.stringify(valid()), { accepts: true }),
        ...Object.entries(w.fields).flatMap(([field, accepts]) =>
          (field.includes('.') ? WRONG_NESTED : WRONG).map((value, i) => probe(`${field} = ${JSON.stringify(value).slice(0, 20)} (#${i})`, JSON.stringify(withField(valid(), field, value)), { accepts: accepts(value), param: paramOf(field) })),
        ),
        probe('an unknown field', JSON.stringify({ ...valid(), surprise: 1 }), { param: 'surprise' }),
        ...['[]', 'null', '42', '"x"', 'true', '{"a":', '{', '[1,2', '{"a":1}}'].map((text) => probe(`body ${text}`, text)),
        probe('invalid UTF-8', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]).toString('latin1')),
        probe('10,000 nested arrays', '['.repeat(10_000) + ']'.repeat(10_000)),
        probe('10,000 nested objects', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000)),
        probe('10,000 nested arrays in a field', JSON.stringify(valid()).replace(/^\{/, `{"deep":${'['.repeat(10_000)}${']'.repeat(10_000)},`)),
        probe('a body over the 1 MB limit', JSON.stringify({ ...valid(), description: 'x'.repeat(MB) })),
        probe('text/plain', JSON.stringify(valid()), { headers: { ...headersOf(w), 'content-type': 'text/plain' } }),
      ];
      // Duplicate keys: the last one counts (one parse everywhere, so nothing reads the other). `[[]]` fits no field.
      for (const field of Object.keys(w.fields).filter((field) => !field.includes('.'))) {
        const body = valid();
        const rest = JSON.stringify(body).slice(1, -1);
        probes.push(probe(`duplicate ${field}, the last wrong`, `{${JSON.stringify(field)}:"first",${rest},${JSON.stringify(field)}:[[]]}`, { param: field }));
        if (field in body) probes.push(probe(`duplicate ${field}, the first wrong`, `{${JSON.stringify(field)}:[[]],${rest}}`, { accepts: true }));
      }
      // Prototype keys at the top and in every object of the body.
      for (const at of objectPaths(valid())) {
        const inside = (key: string, value: unknown): string => {
          const body = valid();
          const holder = at === '' ? body : (at.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], body) as Record<string, unknown>);
          Object.defineProperty(holder, key, { value, enumerable: true, writable: true, configurable: true });
          return JSON.stringify(body);
        };
        const field = (key: string): string => paramOf(at === '' ? key : `${at}.${key}`);
        probes.push(
          probe(`__proto__ in ${at || 'the body'}`, inside('__proto__', PLANTED), { param: field('__proto__') }),
          probe(`constructor.prototype in ${at || 'the body'}`, inside('constructor', { prototype: PLANTED }), { param: field('constructor') }),
          // Plain `constructor` and `prototype` keys are data: free-form objects may keep them, typed ones refuse them.
          probe(`constructor in ${at || 'the body'}`, inside('constructor', PLANTED), { accepts: true }),
          probe(`prototype in ${at || 'the body'}`, inside('prototype', PLANTED), { accepts: true }),
        );
      }
      // 1 MB values last: one accepted into a record makes each later read of it parse 1 MB.
      await sweep([...probes.filter((p) => !p.body?.includes(BIG)), ...probes.filter((p) => p.body?.includes(BIG))]);
    });
  }

  it('path names: dot segments, NUL, separators, prototype names, invalid UTF-8 and long names reach nothing', async () => {
    const id = (): string => developerKeyId;
    const ns = { 'x-gateway-namespace': 'team-a' };
    const targets: Array<{ method: string; path: (name: string) => string; body?: unknown; headers?: Record<string, string>; accepts?: (name: string) => boolean }> = [
      { method: 'POST', path: (x) => `/v1/admin/templates/${x}`, body: { type: 't' } },
      { method: 'PUT', path: (x) => `/v1/admin/templates/${x}`, body: { description: 'x' } },
      { method: 'DELETE', path: (x) => `/v1/admin/templates/${x}` },
      { method: 'PUT', path: (x) => `/v1/admin/gateways/${x}`, body: { type: 'x' } },
      { method: 'DELETE', path: (x) => `/v1/admin/gateways/${x}` },
      { method: 'PUT', path: (x) => `/v1/admin/providers/${x}`, body: { enabled: true } },
      { method: 'DELETE', path: (x) => `/v1/admin/providers/${x}` },
      { method: 'POST', path: (x) => `/v1/admin/providers/${x}/keys/k`, body: { api_key: 'sk-1234567890' }, headers: ns },
      { method: 'POST', path: (x) => `/v1/admin/providers/openai-main/keys/${x}`, body: { api_key: 'sk-1234567890' }, headers: ns },
      // Keys the POST above created under valid names (prototype names and letter case included) are updated and deleted.
      { method: 'PUT', path: (x) => `/v1/admin/providers/openai-main/keys/${x}`, body: { enabled: true }, headers: ns, accepts: (x) => /^[a-z]+$/i.test(x) && x.length < 100 },
      { method: 'DELETE', path: (x) => `/v1/admin/providers/openai-main/keys/${x}`, headers: ns, accepts: (x) => /^[a-z]+$/i.test(x) && x.length < 100 },
      { method: 'DELETE', path: (x) => `/v1/admin/providers/${x}/keys/team-key`, headers: ns },
      { method: 'DELETE', path: () => '/v1/admin/providers/openai-main/keys/team-key', headers: { 'x-gateway-namespace': 'x'.repeat(4000) } },
      { method: 'PUT', path: (x) => `/v1/admin/routes/${x}`, body: { enabled: true } },
      { method: 'DELETE', path: (x) => `/v1/admin/routes/${x}` },
      { method: 'PUT', path: (x) => `/v1/admin/applications/${x}`, body: { description: 'x' } },
      { method: 'DELETE', path: (x) => `/v1/admin/applications/${x}` },
      { method: 'POST', path: (x) => `/v1/admin/applications/${x}/keys`, body: {} },
      { method: 'PUT', path: (x) => `/v1/admin/applications/${x}/keys/${id()}`, body: { name: 'x' } },
      { method: 'PUT', path: (x) => `/v1/admin/applications/shop/keys/${x}`, body: { name: 'x' } },
      { method: 'DELETE', path: (x) => `/v1/admin/applications/shop/keys/${x}` },
      { method: 'DELETE', path: (x) => `/v1/admin/applications/${x}/keys/${id()}` },
      { method: 'PUT', path: (x) => `/v1/admin/applications/${x}/policy`, body: { mode: 'reject' } },
      // A provider type is a name: prototype names are names like any other (their overrides are ordinary records).
      { method: 'PUT', path: (x) => `/v1/admin/prices/${x}`, body: { models: { m: { input: 1, output: 1 } } }, accepts: (x) => /^[a-z]+$/i.test(x) },
      { method: 'DELETE', path: (x) => `/v1/admin/prices/${x}`, accepts: (x) => /^[a-z]+$/i.test(x) },
      { method: 'PUT', path: (x) => `/v1/admin/mcp/registries/${x}`, body: { description: 'x' } },
      { method: 'DELETE', path: (x) => `/v1/admin/mcp/registries/${x}` },
      { method: 'PUT', path: (x) => `/v1/admin/mcp/registries/${x}/tools/add`, body: { enabled: false } },
      { method: 'PUT', path: (x) => `/v1/admin/mcp/registries/tools/tools/${x}`, body: { enabled: false } },
      { method: 'PUT', path: (x) => `/v1/admin/mcp/registries/${x}/policies`, body: {} },
    ];
    // POST creates accept names that are valid and new: letter case makes another name (below), so only invalid names here.
    const creates = HOSTILE_NAMES.filter((x) => !['Shop', 'constructor'].includes(x));
    await sweep(
      targets.flatMap((target) =>
        (target.method === 'POST' && !target.path('@').includes('/keys') ? creates : HOSTILE_NAMES).map((x) => ({
          name: `${target.method} ${target.path(x.slice(0, 24))}`,
          method: target.method,
          path: target.path(x),
          body: target.body === undefined ? undefined : JSON.stringify(target.body),
          headers: target.headers,
          accepts: target.accepts?.(x) === true || (target.method === 'POST' && target.path('@').endsWith('/keys/@') && /^[a-z]+$/i.test(x)),
        })),
      ),
    );
  });

  it('names differing only by case are other resources; Unicode and normalisation variants are refused', async () => {
    assert.equal((await send('POST', '/v1/admin/applications', JSON.stringify({ name: 'SHOP' }))).status, 201);
    assert.equal((await send('GET', '/v1/admin/applications/SHOP')).status, 200);
    assert.equal((await send('DELETE', '/v1/admin/applications/Shop')).status, 404);
    assert.equal((await send('DELETE', '/v1/admin/applications/SHOP')).status, 200);
    const shop = await send('GET', '/v1/admin/applications/shop');
    assert.equal(shop.status, 200, 'deleting SHOP left shop');
    for (const name of ['caf\u00e9', 'cafe\u0301', 'ｓｈｏｐ', 'shop\u200b', 'sh\u0000op', ' shop', 'shop ']) {
      const res = await send('POST', '/v1/admin/applications', JSON.stringify({ name }));
      assert.equal(res.status, 400, name);
      assert.equal((res.json as { error: { param: string } }).error.param, 'name');
    }
  });
});
