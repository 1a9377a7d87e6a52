// Masks secrets for display: a short prefix and the last four characters, never the whole value.

/**
 * Masks a secret as `sk-...wxyz`. Values of 12 characters or fewer show only `...` and the last two.
 * @example
 * maskSecret('sk-live-abcdefghwxyz'); // 'sk-...wxyz'
 */
export function maskSecret(secret: string): string {
  if (secret.length <= 12) return `...${secret.slice(-2)}`;
  return `${secret.slice(0, 3)}...${secret.slice(-4)}`;
}

/** True when `given` is exactly the mask of `secret`, as a client echoes back what it read. */
export function isMaskOf(secret: string, given: string): boolean {
  return given.includes('...') && maskSecret(secret) === given;
}
