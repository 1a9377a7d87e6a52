// Counters and histograms whose series are plain objects held by the caller: recording is an addition, with no label hashing.
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

/** What a prom-client registry reads from a metric: its name, help and type, and its values when scraped. */
abstract class SeriesMetric<S extends CounterSeries | HistogramSeries> {
  /** How prom-client's cluster registry merges workers' values. */
  readonly aggregator = 'sum';
  protected readonly series = new Map<string, S>();

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
  ) {
    // The registry formats any object with a name, a help, a type and get(): prom-client's own metrics are such objects.
    registry.registerMetric(this as unknown as Counter);
  }

  /** The series under `key`, if it was made. */
  find(key: string): S | undefined {
    return this.series.get(key);
  }

  /** The series under `key`, made with `labels` the first time. */
  child(key: string, labels: Record<string, string>): S {
    let found = this.series.get(key);
    if (!found) {
      found = this.make(labels);
      this.series.set(key, found);
    }
    return found;
  }

  /** Forgets every series (prom-client's `registry.resetMetrics()`). */
  reset(): void {
    this.series.clear();
  }

  protected abstract make(labels: Record<string, string>): S;

  /** The values in prom-client's shape, for the registry's text and JSON output. */
  abstract get(): Promise<ExportedMetric>;
}

/** A counter made of {@link CounterSeries}. */
export class SeriesCounter extends SeriesMetric<CounterSeries> {
  constructor(registry: Registry, name: string, help: string) {
    super(registry, name, help, 'counter');
  }

  protected make(labels: Record<string, string>): CounterSeries {
    return new CounterSeries(labels);
  }

  async get(): Promise<ExportedMetric> {
    const values = [...this.series.values()].map((series) => ({ labels: { ...series.labels }, value: series.value }));
    return { name: this.name, help: this.help, type: 'counter', aggregator: 'sum', values };
  }
}

/** A histogram made of {@link HistogramSeries}, exported as prom-client exports its own (`_bucket` with `le`, `_sum`, `_count`). */
export class SeriesHistogram extends SeriesMetric<HistogramSeries> {
  constructor(
    registry: Registry,
    name: string,
    help: string,
    private readonly bounds: readonly number[],
  ) {
    super(registry, name, help, 'histogram');
  }

  protected make(labels: Record<string, string>): HistogramSeries {
    return new HistogramSeries(labels, this.bounds);
  }

  async get(): Promise<ExportedMetric> {
    const values: ExportedValue[] = [];
    const bucket = `${this.name}_bucket`;
    for (const series of this.series.values()) {
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
