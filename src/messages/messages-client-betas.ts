// The anthropic-beta header of a Messages client, checked for form: short lowercase names, a bounded number of them.
import type { IncomingHttpHeaders } from 'node:http';
import { Errors } from '../errors/error-registry.js';

/** The form of one beta name. */
const BETA_NAME = /^[a-z0-9-]{1,64}$/;
/** The most names one request may carry (Claude Code sends a handful). */
export const MAX_REQUEST_BETAS = 16;

function refuse(message: string): never {
  throw Errors.validation([message], { param: 'anthropic-beta' });
}

/**
 * The betas a client asked for with `anthropic-beta` (comma-separated; the header may be repeated), each trimmed, no
 * name twice; an empty list without the header. A name not of beta form (`a-z`, `0-9`, `-`, 1 to 64 characters) or
 * more than {@link MAX_REQUEST_BETAS} names is 400 naming the header. Which of them reach a provider is the adapter's
 * choice (an Anthropic provider's allow-list); no other provider gets any.
 */
export function clientBetasOf(headers: IncomingHttpHeaders): string[] {
  const raw = headers['anthropic-beta'];
  if (raw === undefined) return [];
  const values = Array.isArray(raw) ? raw : [raw];
  const names: string[] = [];
  for (const value of values) {
    for (const part of value.split(',')) {
      const name = part.trim();
      if (name === '') continue;
      if (!BETA_NAME.test(name)) refuse(`The anthropic-beta header holds a name that is not a beta name (lowercase letters, digits and '-', at most 64 characters): ${JSON.stringify(name.slice(0, 64))}.`);
      if (names.includes(name)) continue;
      if (names.length >= MAX_REQUEST_BETAS) refuse(`The anthropic-beta header names more than ${MAX_REQUEST_BETAS} betas.`);
      names.push(name);
    }
  }
  return names;
}
