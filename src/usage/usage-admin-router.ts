// Admin endpoints of usage and cost: totals grouped by application, key, route, model or day; prices; budget states.
import { Router, type Request } from 'express';
import type { AdminServices } from '../admin/admin-services.js';
import type { DeveloperKeyRecord } from '../admin/developer-key-store.js';
import { queryReader } from '../admin/query-parameters.js';
import { objectBody, pathParam } from '../admin/request-body.js';
import { nameSchema } from '../admin/schemas/common-schemas.js';
import { Errors } from '../errors/error-registry.js';
import { compileValidator } from '../validation/schema-validator.js';
import { dayOf } from './budget-periods.js';
import { DEFAULT_PRICES_AS_OF, type ModelPrice } from './price-table.js';
import type { Budget } from './usage-schemas.js';
import { priceOverridesSchema } from './usage-schemas.js';
import { USAGE_GROUPS, type UsageGroup } from './usage-totals.js';
import type { UsageService } from './usage-service.js';

/** The longest range one usage query may cover, in days. */
const MAX_DAYS = 366;
const DAY_MS = 86_400_000;
const TYPE_NAME = new RegExp(nameSchema.pattern);

const validateOverrides = compileValidator<{ models: Record<string, ModelPrice | null> }>(priceOverridesSchema);

const readUsageQuery = queryReader(['group_by', 'from', 'to']);

const DAY_OR_TIME = /^(\d{4}-\d{2}-\d{2})(?:[T ]([0-9:.]+)(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A `from`/`to` parameter: a date (`2026-11-25`) or an ISO 8601 time, as its UTC day. A date that is not in the
 * calendar (`2026-02-30`) is refused rather than rolled over, and a time without an offset is read as UTC, never in
 * the server's time zone.
 */
function dayParam(value: string | undefined, name: 'from' | 'to', fallback: string): string {
  if (value === undefined) return fallback;
  const parts = DAY_OR_TIME.exec(value);
  const day = parts?.[1];
  const valid = day !== undefined && !Number.isNaN(Date.parse(day)) && dayOf(new Date(Date.parse(day))) === day;
  const time = valid ? Date.parse(parts![2] === undefined ? day : `${day}T${parts![2]}${parts![3] ?? 'Z'}`) : NaN;
  if (Number.isNaN(time)) throw Errors.validation([`The parameter '${name}' must be a date (YYYY-MM-DD) or an ISO 8601 time.`], { param: name });
  return dayOf(new Date(time));
}

function groupParam(value: string | undefined): UsageGroup {
  if (value === undefined) return 'application';
  if (!(USAGE_GROUPS as readonly string[]).includes(value)) {
    throw Errors.validation([`The parameter 'group_by' must be one of ${USAGE_GROUPS.join(', ')}.`], { param: 'group_by' });
  }
  return value as UsageGroup;
}

function typeParam(req: Request): string {
  const type = pathParam(req, 'type');
  if (!TYPE_NAME.test(type)) throw Errors.validation(['The provider type must be a name: letters, digits and _ . : @ -.'], { param: 'type' });
  return type;
}

/**
 * `GET /usage?group_by=application|key|route|model|day&from=&to=` (UTC days, inclusive; default the last 30 days; no other
 * parameter),
 * `GET /prices`, `GET|PUT|DELETE /prices/:type`, `GET /budgets`.
 */
export function usageAdminRouter(services: AdminServices, usage: UsageService, now: () => Date = () => new Date()): Router {
  const router = Router();

  router.get('/usage', async function readUsage(req, res) {
    const query = readUsageQuery(req);
    const groupBy = groupParam(query.group_by);
    const to = dayParam(query.to, 'to', dayOf(now()));
    const from = dayParam(query.from, 'from', dayOf(new Date(Date.parse(to) - 29 * DAY_MS)));
    if (from > to) throw Errors.validation(["The parameter 'from' must not be after 'to'."], { param: 'from' });
    if (Date.parse(to) - Date.parse(from) >= MAX_DAYS * DAY_MS) throw Errors.validation([`A usage query covers at most ${MAX_DAYS} days.`], { param: 'from' });
    await usage.flush();
    res.json({ object: 'list', group_by: groupBy, from, to, data: await usage.totals.query(groupBy, from, to) });
  });

  router.get('/prices', async function listPrices(_req, res) {
    const providers: Record<string, unknown> = {};
    for (const type of await usage.prices.types()) providers[type] = await usage.prices.table(type);
    res.json({ as_of: DEFAULT_PRICES_AS_OF, unit: 'USD per million tokens', providers });
  });
  router.get('/prices/:type', async function getPrices(req, res) {
    const type = typeParam(req);
    res.json({ type, as_of: DEFAULT_PRICES_AS_OF, unit: 'USD per million tokens', models: await usage.prices.table(type) });
  });
  router.put('/prices/:type', async function putPrices(req, res) {
    const type = typeParam(req);
    const { models } = validateOverrides(objectBody(req));
    await usage.prices.override(type, models);
    res.json({ message: `Prices of ${type} updated`, models: await usage.prices.table(type) });
  });
  router.delete('/prices/:type', async function resetPrices(req, res) {
    const type = typeParam(req);
    const removed = await usage.prices.reset(type);
    res.json({ message: removed ? `Price overrides of ${type} removed` : `${type} has no price overrides` });
  });

  router.get('/budgets', async function listBudgets(_req, res) {
    const applications = (await services.applications.list()) as unknown as Array<{ name: string; created_at?: string; budget?: Budget }>;
    const keysOf = (application: string): Promise<Array<DeveloperKeyRecord & { budget?: Budget }>> => services.developerKeys.list(application);
    res.json({ object: 'list', data: await usage.budgetStates(applications, keysOf) });
  });
  return router;
}
