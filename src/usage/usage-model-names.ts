// The model names usage totals keep: configured ones as they are, and a bounded number of caller-chosen ones per UTC day.
import { configuredModel } from '../observability/metric-labels.js';
import type { ModelRequestContext } from '../traffic/model-request-context.js';
import { OTHER_ROUTE_OR_MODEL } from './usage-totals.js';

/** Distinct caller-chosen model names a process keeps per UTC day in usage totals; later ones count as `(other)`. */
export const MAX_CALLER_MODELS_PER_DAY = 1000;

/**
 * Chooses the model name a request's usage is totalled under. A model an admin configured (a route's model, or one in
 * the provider's `config.models` or `config.deployments`) keeps its name. A caller-chosen one (`provider/<anything>` on
 * a unified route, which a provider may refuse or never have heard of) keeps its name for the first `max` distinct
 * names of its UTC day, and is counted under {@link OTHER_ROUTE_OR_MODEL} after that: otherwise each new name a
 * developer key sends adds a row to the day's totals for good, without bound.
 * @example
 * const names = new UsageModelNames();
 * totals.record(day, app, incarnation, key, route, names.of(day, entry.model ?? '', entry.provider, context), usage, usd);
 */
export class UsageModelNames {
  /** The caller-chosen names seen, per UTC day (the current day and the one before, for requests that end after midnight). */
  private readonly days = new Map<string, Set<string>>();

  constructor(private readonly max = MAX_CALLER_MODELS_PER_DAY) {}

  /** The name to total `model` under, for a request of UTC day `day` that went to `provider` (null: none, as a cache hit). */
  of(day: string, model: string, provider: string | null, context: ModelRequestContext | undefined): string {
    const candidate = context?.candidates.find((each) => each.model === model && (provider === null || each.provider.name === provider));
    if (candidate && configuredModel(candidate) !== undefined) return model;
    let seen = this.days.get(day);
    if (!seen) {
      seen = new Set();
      this.days.set(day, seen);
      for (const old of [...this.days.keys()].sort().slice(0, -2)) this.days.delete(old);
    }
    if (seen.has(model)) return model;
    if (seen.size >= this.max) return OTHER_ROUTE_OR_MODEL;
    seen.add(model);
    return model;
  }
}
