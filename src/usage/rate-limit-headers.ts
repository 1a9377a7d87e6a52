// OpenAI's x-ratelimit-* headers and its reset durations ("20ms", "1.5s", "6m0s").
import type { WindowState } from './caller-limits.js';

/** A duration as OpenAI writes it in `x-ratelimit-reset-*`: `20ms`, `1.5s`, `6m0s`. */
export function formatReset(ms: number): string {
  const rounded = Math.max(0, Math.ceil(ms));
  if (rounded < 1000) return `${rounded}ms`;
  const seconds = rounded / 1000;
  if (seconds < 60) return `${Math.round(seconds * 1000) / 1000}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${Math.round((seconds - minutes * 60) * 1000) / 1000}s`;
}

/** The headers of one limit (`requests` or `tokens`), as OpenAI sends them. */
export function rateLimitHeaders(kind: 'requests' | 'tokens', limit: number, state: WindowState): Record<string, string> {
  return {
    [`x-ratelimit-limit-${kind}`]: String(limit),
    [`x-ratelimit-remaining-${kind}`]: String(Math.max(0, Math.floor(state.remaining))),
    [`x-ratelimit-reset-${kind}`]: formatReset(state.resetMs),
  };
}
