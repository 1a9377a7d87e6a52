// The price table: USD per million input, output, cached-input and cache-write (5-minute, 1-hour) tokens per provider type and model; shipped defaults, admin overrides.
import type { Storage } from '../storage/storage-facade.js';
import defaultPrices from './default-prices.json' with { type: 'json' };
import type { TokenUsage } from './usage-extractor.js';

/**
 * Prices of one model, in USD per million tokens. Input read from the provider's prompt cache is billed at
 * `cached_input`, input written to it at `cache_write_input` (each at `input` when the model has none), except input
 * written to Anthropic's 1-hour cache, billed at `cache_write_1h_input` (at twice `input` when the model has none, as
 * Anthropic bills it).
 */
export interface ModelPrice {
  input: number;
  output: number;
  cached_input?: number;
  cache_write_input?: number;
  cache_write_1h_input?: number;
}

/** What a 1-hour cache write costs, as a multiple of `input`, for a model without `cache_write_1h_input` (Anthropic's rule). */
export const HOUR_WRITE_INPUT_FACTOR = 2;

/** What one answer cost, in USD. `cache_write_input_usd` is every cache write, 5-minute and 1-hour ones together. */
export interface UsageCost {
  usd: number;
  input_usd: number;
  output_usd: number;
  cached_input_usd: number;
  cache_write_input_usd: number;
}

/** The overrides of one provider type, stored under `prices/<type>`. */
export interface PriceOverrides {
  models: Record<string, ModelPrice>;
}

/** The date the shipped prices were read from the providers' price pages. */
export const DEFAULT_PRICES_AS_OF: string = defaultPrices.as_of;
const DEFAULTS = defaultPrices.providers as Record<string, Record<string, ModelPrice>>;

/** The storage key of a provider type's overrides. */
export const priceOverridesKey = (type: string): string => `prices/${type}`;

/** Rounds to a millionth of a cent, so sums of float costs stay readable. */
const roundUsd = (value: number): number => Math.round(value * 1e8) / 1e8;

/**
 * The price of `model` in `table`: the exact name, else the longest name that `model` starts with followed by
 * `-`, `@` or `:` (a dated or tagged version: `gpt-4o-2024-08-06` → `gpt-4o`, `claude-sonnet-4-5-20250929` →
 * `claude-sonnet-4-5`). A leading `models/` (Gemini's resource name) is ignored.
 */
export function findPrice(table: Record<string, ModelPrice> | undefined, model: string): ModelPrice | undefined {
  if (!table) return undefined;
  const name = model.startsWith('models/') ? model.slice('models/'.length) : model;
  if (Object.hasOwn(table, name)) return table[name];
  let best: string | undefined;
  for (const candidate of Object.keys(table)) {
    if (name.length > candidate.length && name.startsWith(candidate) && '-@:'.includes(name[candidate.length]!) && candidate.length > (best?.length ?? 0)) best = candidate;
  }
  return best === undefined ? undefined : table[best];
}

/**
 * The cost of `usage` at `price`: input neither read from nor written to the cache at `input`, cache reads at
 * `cached_input`, cache writes at `cache_write_input` but 1-hour ones at `cache_write_1h_input`, output at `output`;
 * each token counted once.
 */
export function costOf(usage: TokenUsage, price: ModelPrice): UsageCost {
  const uncached = Math.max(0, usage.prompt_tokens - usage.cached_tokens - usage.cache_write_tokens);
  const input = (uncached * price.input) / 1e6;
  const cached = (usage.cached_tokens * (price.cached_input ?? price.input)) / 1e6;
  const hourWrites = Math.min(usage.cache_write_1h_tokens, usage.cache_write_tokens);
  const written =
    ((usage.cache_write_tokens - hourWrites) * (price.cache_write_input ?? price.input) + hourWrites * (price.cache_write_1h_input ?? HOUR_WRITE_INPUT_FACTOR * price.input)) / 1e6;
  const output = (usage.completion_tokens * price.output) / 1e6;
  return {
    usd: roundUsd(input + cached + written + output), input_usd: roundUsd(input), output_usd: roundUsd(output),
    cached_input_usd: roundUsd(cached), cache_write_input_usd: roundUsd(written),
  };
}

/**
 * Prices by provider type and model: an admin override first (stored, so every replica sees it), then the shipped
 * defaults. Overrides are read through the storage facade's cache, so pricing an answer costs no storage read.
 */
export class PriceTable {
  constructor(private readonly storage: Storage) {}

  /** The price of a model of a provider type, or undefined when neither an override nor a default names it. */
  async priceOf(type: string, model: string): Promise<ModelPrice | undefined> {
    const overrides = await this.storage.getCached<PriceOverrides>(priceOverridesKey(type));
    return findPrice(overrides?.models, model) ?? findPrice(DEFAULTS[type], model);
  }

  /**
   * {@link priceOf} without a storage read when the type's overrides are in the storage cache: `{ price }`, or
   * undefined when they must be read.
   */
  cachedPriceOf(type: string, model: string): { price: ModelPrice | undefined } | undefined {
    const overrides = this.storage.peekCached<PriceOverrides>(priceOverridesKey(type));
    if (overrides === undefined) return undefined;
    return { price: findPrice(overrides.value?.models, model) ?? findPrice(DEFAULTS[type], model) };
  }

  /** The effective table of one provider type: defaults and overrides, each model marked with its source. */
  async table(type: string): Promise<Record<string, ModelPrice & { source: 'default' | 'override' }>> {
    const overrides = (await this.storage.get<PriceOverrides>(priceOverridesKey(type)))?.models ?? {};
    const shown: Record<string, ModelPrice & { source: 'default' | 'override' }> = {};
    for (const [model, price] of Object.entries(DEFAULTS[type] ?? {})) shown[model] = { ...price, source: 'default' };
    for (const [model, price] of Object.entries(overrides)) shown[model] = { ...price, source: 'override' };
    return shown;
  }

  /** Provider types with defaults or overrides. */
  async types(): Promise<string[]> {
    const stored = (await this.storage.list<PriceOverrides>('prices/')).map((entry) => entry.key.slice('prices/'.length));
    return [...new Set([...Object.keys(DEFAULTS), ...stored])].sort();
  }

  /** Sets (a price) or removes (null) overrides of one provider type, in one write. */
  async override(type: string, changes: Record<string, ModelPrice | null>): Promise<void> {
    await this.storage.update<PriceOverrides>(priceOverridesKey(type), (current) => {
      const models = { ...current?.models };
      for (const [model, price] of Object.entries(changes)) {
        if (price === null) delete models[model];
        else models[model] = price;
      }
      return Object.keys(models).length > 0 ? { models } : undefined;
    });
  }

  /** Removes every override of one provider type; resolves true when there were some. */
  reset(type: string): Promise<boolean> {
    return this.storage.delete(priceOverridesKey(type));
  }
}
