// Reads GET /metrics with a Prometheus text-format parser, and finds samples by family name and labels.
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import request from 'supertest';
import type { Express } from 'express';
import { eventually } from './eventually.js';

/** The parsed families of one scrape, with the raw text. */
export interface Scrape {
  text: string;
  families: MetricFamily[];
  /** The samples of a family whose labels include `labels`. */
  samples(name: string, labels?: Record<string, string>): NonNullable<MetricFamily['metrics']>;
  /** The sum of counter or gauge values of matching samples (0 when none). */
  value(name: string, labels?: Record<string, string>): number;
  /** The summed observation count of matching histogram series. */
  count(name: string, labels?: Record<string, string>): number;
  /** The summed observation sum of matching histogram samples. */
  sum(name: string, labels?: Record<string, string>): number;
}

/** Scrapes `/metrics` from `app` (with `headers`), expecting 200. */
export async function scrape(app: Express, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await request(app).get('/metrics').set(headers).expect(200);
  const text = res.text;
  const families = parsePrometheusTextFormat(text);
  // The parser folds a labelled histogram's series into one sample; read without the histogram TYPE lines, each
  // histogram's _bucket, _sum and _count series come back as untyped families (one per run of lines), labels intact.
  const series = parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram$/gm, ''));
  const samples = (name: string, labels: Record<string, string> = {}) =>
    series.filter((family) => family.name === name).flatMap((family) => family.metrics).filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value));
  const total = (values: Array<string | undefined>) => values.reduce((sum, value) => sum + Number(value ?? 0), 0);
  return {
    text,
    families,
    samples,
    value: (name, labels) => total(samples(name, labels).map((sample) => sample.value)),
    count: (name, labels) => total(samples(`${name}_count`, labels).map((sample) => sample.value)),
    sum: (name, labels) => total(samples(`${name}_sum`, labels).map((sample) => sample.value)),
  };
}

/**
 * Scrapes until `check` passes (it throws while it does not), for at most `deadlineMs`: request metrics are recorded
 * when the server side of an answer closes, which may come a moment after the client has read it.
 */
export async function scrapeUntil(app: Express, check: (scrape: Scrape) => void, headers: Record<string, string> = {}, deadlineMs = 3000): Promise<Scrape> {
  return eventually(async () => {
    const result = await scrape(app, headers);
    check(result);
    return result;
  }, deadlineMs);
}
