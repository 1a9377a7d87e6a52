// The kind of a network failure as a caller may read it: the error's code, never its message (which names hosts and ports).

/**
 * A network error's code (`ECONNREFUSED`, `ENOTFOUND`, `UND_ERR_SOCKET`, …), which names no host or address, or
 * "the connection failed" when it has none. For answers to callers; the whole message belongs in logs and Chronicles.
 * @example
 * networkFailureOf(Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), { code: 'ECONNREFUSED' })); // 'ECONNREFUSED'
 */
export function networkFailureOf(error: unknown): string {
  const withCode = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = withCode?.code ?? withCode?.cause?.code;
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : 'the connection failed';
}
