// The server's V8 heap growth (GATEWAY_HEAP_GROWING_PERCENT): how far the old generation may grow past its live size before a full GC.
import { setFlagsFromString } from 'node:v8';

/**
 * The default: a full GC once the old generation is twice its live size. V8's own factor goes up to four times under
 * load: about 55 MB more peak RSS at 32 connections, for 0–10% less CPU per request (see BENCHMARKS.md).
 */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

/**
 * Reads a heap growing percent (a whole number; 0 keeps V8's own factor), or throws when `value` is not one.
 * @example
 * heapGrowingPercent(process.env.GATEWAY_HEAP_GROWING_PERCENT); // 100 when unset
 */
export function heapGrowingPercent(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_HEAP_GROWING_PERCENT;
  const percent = Number(value);
  if (!Number.isSafeInteger(percent) || percent < 0 || percent > 1000) throw new Error('GATEWAY_HEAP_GROWING_PERCENT must be a whole number from 0 to 1000');
  return percent;
}

/** Sets V8's `--heap-growing-percent` for this process (read at every full GC, so it applies from the next one); 0 leaves V8's own. */
export function applyHeapGrowing(percent: number): void {
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
