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

/** The answer shown for a sealed secret this gateway cannot open (another `GATEWAY_SECRET`, or none). */
export const SEALED_SECRET_MASK = '...(encrypted)';

/**
 * True when `given` has the shape of a mask ({@link maskSecret}'s `sk-...wxyz` or `...yz`, or {@link SEALED_SECRET_MASK}):
 * a client echoing back what it read, never a real secret.
 */
export function looksMasked(given: string): boolean {
  return given === SEALED_SECRET_MASK || /^(?:[^]{3}\.\.\.[^]{4}|\.\.\.[^]{2})$/.test(given);
}
