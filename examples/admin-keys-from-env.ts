// Reads more admin keys for the example server from GATEWAY_ADMIN_KEYS: a JSON array of {key, role, name?}.
import type { AdminKeyConfig } from '../src/index.js';

/**
 * The admin keys in `GATEWAY_ADMIN_KEYS` (none when unset). Their shape is checked by createGateway, which
 * refuses a key shorter than 16 characters or an unknown role.
 * @example
 * GATEWAY_ADMIN_KEYS='[{"key":"…","role":"viewer","name":"ops"}]'
 */
export function adminKeysFromEnv(text = process.env.GATEWAY_ADMIN_KEYS): AdminKeyConfig[] {
  if (text === undefined || text.trim() === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('GATEWAY_ADMIN_KEYS must be a JSON array of {"key","role","name"} objects');
  }
  if (!Array.isArray(parsed)) throw new Error('GATEWAY_ADMIN_KEYS must be a JSON array of {"key","role","name"} objects');
  return parsed as AdminKeyConfig[];
}
