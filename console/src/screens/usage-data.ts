// Usage series for the charts: from GET /v1/admin/usage when the gateway answers it, else counted from the Chronicles.
import { api, ApiError, seg } from '../api.js';
import type { ChronicleEntry } from './chronicle-types.js';

/** Time buckets (epoch seconds) and, per metric, one series per group (route or model). */
export interface UsageSeries {
  source: 'usage endpoint' | 'request log';
  times: number[];
  metrics: Array<{ title: string; unit: string; groups: Array<{ label: string; values: number[] }> }>;
}

/** Most Chronicles entries read to count usage when the usage endpoint is missing. */
const MAX_ENTRIES = 2000;

const tokensOf = (entry: ChronicleEntry): number => {
  const usage = entry.usage ?? {};
  const total = usage.total_tokens;
  if (typeof total === 'number') return total;
  return (Number(usage.prompt_tokens) || 0) + (Number(usage.completion_tokens) || 0);
};

/** Most buckets on a chart's time axis before only the buckets with data are kept. */
const MAX_BUCKETS = 1000;

/** Every bucket from the first with data (or 11 before the last, for a readable axis) to the last, empty ones included. */
function timeline(buckets: number[], bucketSeconds: number): number[] {
  if (buckets.length === 0) return [];
  const sorted = [...new Set(buckets)].sort((a, b) => a - b);
  const last = sorted[sorted.length - 1]!;
  const first = Math.min(sorted[0]!, last - 11 * bucketSeconds);
  if ((last - first) / bucketSeconds > MAX_BUCKETS) return sorted;
  const times: number[] = [];
  for (let time = first; time <= last; time += bucketSeconds) times.push(time);
  return times;
}

/** Buckets entries per `bucketSeconds`, one series per route for requests and per model for tokens and cost. */
export function seriesFromEntries(entries: ChronicleEntry[], bucketSeconds: number): UsageSeries {
  const bucketOf = (entry: ChronicleEntry) => Math.floor(Date.parse(entry.timestamp) / 1000 / bucketSeconds) * bucketSeconds;
  const times = timeline(entries.map(bucketOf), bucketSeconds);
  const index = new Map(times.map((time, i) => [time, i]));
  const grouped = (key: (entry: ChronicleEntry) => string, value: (entry: ChronicleEntry) => number) => {
    const groups = new Map<string, number[]>();
    for (const entry of entries) {
      const label = key(entry);
      const values = groups.get(label) ?? times.map(() => 0);
      values[index.get(bucketOf(entry))!]! += value(entry);
      groups.set(label, values);
    }
    return [...groups].map(([label, values]) => ({ label, values }));
  };
  return {
    source: 'request log',
    times,
    metrics: [
      { title: 'Requests per route', unit: 'requests', groups: grouped((e) => e.route ?? (e.kind === 'tool' ? `tools: ${e.provider ?? ''}` : '(no route)'), () => 1) },
      { title: 'Tokens per model', unit: 'tokens', groups: grouped((e) => e.model ?? '(no model)', tokensOf) },
      { title: 'Cost per model (USD)', unit: 'USD', groups: grouped((e) => e.model ?? '(no model)', (e) => e.cost?.usd ?? 0) },
    ],
  };
}

/**
 * Reads an answer of the usage endpoint: `{ buckets: [{ time|start, requests, tokens, cost, ... }] }` or an array of
 * such buckets; every numeric field becomes a metric. Answers undefined when the shape is not recognised.
 */
export function seriesFromUsageAnswer(answer: unknown): UsageSeries | undefined {
  const record = answer as Record<string, unknown> | null;
  const candidates = Array.isArray(answer) ? answer : (['buckets', 'series', 'data', 'points'].map((key) => record?.[key]).find(Array.isArray) as unknown[] | undefined);
  if (!candidates?.length) return undefined;
  const rows = candidates.filter((row): row is Record<string, unknown> => row !== null && typeof row === 'object');
  const timeKey = ['time', 'start', 'bucket', 'timestamp', 'from'].find((key) => rows[0]?.[key] !== undefined);
  if (!timeKey) return undefined;
  const times = rows.map((row) => {
    const value = row[timeKey];
    return Math.floor((typeof value === 'number' ? (value > 1e12 ? value / 1000 : value) : Date.parse(String(value)) / 1000));
  });
  const numeric = Object.keys(rows[0]!).filter((key) => key !== timeKey && rows.every((row) => typeof row[key] === 'number' || row[key] === undefined));
  if (numeric.length === 0) return undefined;
  return {
    source: 'usage endpoint',
    times,
    metrics: numeric.map((key) => ({ title: key, unit: key, groups: [{ label: key, values: rows.map((row) => Number(row[key] ?? 0)) }] })),
  };
}

/** The usage of an application: the usage endpoint when it answers 200 in a known shape, else the request log. */
export async function loadUsage(application: string, bucketSeconds: number): Promise<UsageSeries> {
  try {
    const answer = await api<unknown>('GET', `admin/usage?application=${seg(application)}&bucket=${bucketSeconds}`);
    const series = seriesFromUsageAnswer(answer);
    if (series) return series;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
  }
  const entries: ChronicleEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: ChronicleEntry[]; next_cursor: string | null } = await api('GET', `admin/applications/${seg(application)}/chronicles?limit=500${cursor ? `&cursor=${seg(cursor)}` : ''}`);
    entries.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor && entries.length < MAX_ENTRIES);
  return seriesFromEntries(entries, bucketSeconds);
}
