// The gateway's own series export what prom-client's Counter and Histogram export for the same observations.
import assert from 'node:assert/strict';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { Counter, Histogram, Registry } from 'prom-client';
import { SeriesCounter, SeriesHistogram } from '../../src/observability/metric-series.js';

const BUCKETS = [0.01, 0.1, 1, 10];
const VALUES = [0, 0.01, 0.05, 0.1, 0.5, 3, 10, 11, 250];

/** The families of a scrape, with each sample's labels sorted, so label order does not count. */
async function parsed(registry: Registry): Promise<unknown> {
  return parsePrometheusTextFormat(await registry.metrics()).map((family) => ({
    ...family,
    metrics: family.metrics.map((sample) => JSON.parse(JSON.stringify(sample, (_key, value: unknown) => (value && typeof value === 'object' && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).sort()) : value)))),
  }));
}

describe('15.2 metric series', () => {
  it('a SeriesHistogram and a SeriesCounter read as prom-client Histogram and Counter read, line for line', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const histogram = new Histogram({ name: 'h_seconds', help: 'A histogram.', labelNames: ['route', 'status'], buckets: BUCKETS, registers: [theirs] });
    const counter = new Counter({ name: 'c_total', help: 'A counter.', labelNames: ['route'], registers: [theirs] });
    const seriesHistogram = new SeriesHistogram(ours, 'h_seconds', 'A histogram.', ['route', 'status'], BUCKETS);
    const seriesCounter = new SeriesCounter(ours, 'c_total', 'A counter.', ['route']);
    for (const [index, value] of VALUES.entries()) {
      const route = index % 2 ? 'a' : 'b';
      histogram.labels({ route, status: '200' }).observe(value);
      seriesHistogram.at(route, '200').observe(value);
      counter.labels({ route }).inc(value);
      seriesCounter.at(route).inc(value);
    }
    seriesHistogram.at('a', '200').observe(Number.NaN); // ignored
    assert.equal(seriesHistogram.at('a', '200'), seriesHistogram.at('a', '200'), 'one series per label set');
    assert.deepEqual(await parsed(ours), await parsed(theirs));
    assert.deepEqual(await ours.getMetricsAsJSON().then((metrics) => metrics.map((metric) => metric.name)), ['h_seconds', 'c_total']);
    ours.resetMetrics();
    assert.ok(!(await ours.metrics()).includes('route='));
  });
});
