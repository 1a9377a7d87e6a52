// Counters and histograms whose series are plain objects found through nested maps: recording is a few lookups and an addition.
import type { Counter, Registry } from 'prom-client';

/** One exported value: a series' value, or one of a histogram series' lines (`metricName` then names the line). */
export interface ExportedValue {
  metricName?: string;
  labels: Record<string, string | number>;
  value: number;
}

/** A metric as prom-client's registry reads it when scraped. */
export interface ExportedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  values: ExportedValue[];
}

/** One counter series (one label-value combination). */
export class CounterSeries {
  /** The running total. */
  value = 0;

  constructor(
    /** Its labels, as exported. */
    readonly labels: Readonly<Record<string, string>>,
  ) {}

  /** Adds `by` (default 1). */
  inc(by = 1): void {
    this.value += by;
  }
}

/** One histogram series: a count per bucket (not cumulative), the sum and the count. */
export class HistogramSeries {
  /** Observations per bucket, by upper bound index; past the last bound, only `count` grows (`+Inf`). */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    /** Its labels, as exported. */
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  /** Records one value; a value that is not a finite number is ignored. */
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > bounds[index]!) index++;
    if (index < bounds.length) this.counts[index]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

type Level = Map<string, unknown>;

/** The map under `value` in `level`, made the first time. */
function step(level: Level, value: string): Level {
  let next = level.get(value) as Level | undefined;
  if (!next) {
    next = new Map();
    level.set(value, next);
  }
  return next;
}

/** What a prom-client registry reads from a metric: its name, help and type, and its values when scraped. */
abstract class SeriesMetric<S extends CounterSeries | HistogramSeries> {
  /** How prom-client's cluster registry merges workers' values. */
  readonly aggregator = 'sum';
  /** Series by label values, one map level per label (up to five). */
  private root: Level = new Map();
  /** Every series, in the order made (the export order). */
  protected series: S[] = [];
  /** How many times the metric was reset: a series found before a reset is no longer exported. */
  generation = 0;

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    private readonly labelNames: readonly string[],
  ) {
    if (labelNames.length > 5) throw new Error(`${name}: at most five labels`);
    // The registry formats any object with a name, a help, a type and get(): prom-client's own metrics are such objects.
    registry.registerMetric(this as unknown as Counter);
  }

  /** The series for these label values, in label-name order; an empty value leaves its label out. */
  at(a = '', b = '', c = '', d = '', e = ''): S {
    const last = step(step(step(step(this.root, a), b), c), d);
    let found = last.get(e) as S | undefined;
    if (!found) {
      const labels: Record<string, string> = {};
      const values = [a, b, c, d, e];
      this.labelNames.forEach((name, index) => {
        if (values[index]) labels[name] = values[index]!;
      });
      found = this.make(labels);
      last.set(e, found);
      this.series.push(found);
    }
    return found;
  }

  /** Forgets every series (prom-client's `registry.resetMetrics()`). */
  reset(): void {
    this.root = new Map();
    this.series = [];
    this.generation++;
  }

  protected abstract make(labels: Record<string, string>): S;

  /** The values in prom-client's shape, for the registry's text and JSON output. */
  abstract get(): Promise<ExportedMetric>;
}

/** A counter made of {@link CounterSeries}. */
export class SeriesCounter extends SeriesMetric<CounterSeries> {
  constructor(registry: Registry, name: string, help: string, labelNames: readonly string[]) {
    super(registry, name, help, 'counter', labelNames);
  }

  protected make(labels: Record<string, string>): CounterSeries {
    return new CounterSeries(labels);
  }

  async get(): Promise<ExportedMetric> {
    const values = this.series.map((series) => ({ labels: { ...series.labels }, value: series.value }));
    return { name: this.name, help: this.help, type: 'counter', aggregator: 'sum', values };
  }
}

/** A histogram made of {@link HistogramSeries}, exported as prom-client exports its own (`_bucket` with `le`, `_sum`, `_count`). */
export class SeriesHistogram extends SeriesMetric<HistogramSeries> {
  constructor(
    registry: Registry,
    name: string,
    help: string,
    labelNames: readonly string[],
    private readonly bounds: readonly number[],
  ) {
    super(registry, name, help, 'histogram', labelNames);
  }

  protected make(labels: Record<string, string>): HistogramSeries {
    return new HistogramSeries(labels, this.bounds);
  }

  async get(): Promise<ExportedMetric> {
    const values: ExportedValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const series of this.series) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += series.counts[index]!;
        values.push({ metricName: bucket, labels: { ...series.labels, le: bound }, value: cumulative });
      });
      values.push({ metricName: bucket, labels: { ...series.labels, le: '+Inf' }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels: { ...series.labels }, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels: { ...series.labels }, value: series.count });
    }
    return { name: this.name, help: this.help, type: 'histogram', aggregator: 'sum', values };
  }
}
