// Usage series for the charts: requests, tokens and cost over time, counted from an application's Chronicles.
import { api, seg } from '../api.js';
import type { ChronicleEntry } from './chronicle-types.js';

/** Time buckets (epoch seconds) and, per metric, one series per group (route or model). */
export interface UsageSeries {
  source: 'request log';
  times: number[];
  metrics: Array<{ title: string; unit: string; groups: Array<{ label: string; values: number[] }> }>;
}

/** Most Chronicles entries read to count usage. */
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
      { title: 'Requests per route', unit: 'requests', groups: grouped((e) => e.route ?? (e.kind !== 'model' ? `tools: ${e.provider ?? ''}` : '(no route)'), () => 1) },
      { title: 'Tokens per model', unit: 'tokens', groups: grouped((e) => e.model ?? '(no model)', tokensOf) },
      { title: 'Cost per model (USD)', unit: 'USD', groups: grouped((e) => e.model ?? '(no model)', (e) => e.cost?.usd ?? 0) },
    ],
  };
}

/**
 * The usage of an application over time, counted from its request log (whose entries carry usage and cost).
 * `GET /v1/admin/usage` sums per group over days for all applications, so the charts do not use it.
 */
export async function loadUsage(application: string, bucketSeconds: number): Promise<UsageSeries> {
  const entries: ChronicleEntry[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: ChronicleEntry[]; next_cursor: string | null } = await api('GET', `admin/applications/${seg(application)}/chronicles?limit=500${cursor ? `&cursor=${seg(cursor)}` : ''}`);
    entries.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor && entries.length < MAX_ENTRIES);
  return seriesFromEntries(entries, bucketSeconds);
}
