// Admin-set URLs holding credentials: a URL sent back masked, as answers show it, keeps the stored one; a mask left inside a new URL is refused.
import { Errors } from '../errors/error-registry.js';
import { holdsMaskedCredential, maskUrlCredentials } from '../secrets/url-credentials.js';

/**
 * The URL to store for `given` (a provider's `config.api_base`, a registry's `url`): the `stored` URL when `given`
 * is exactly its masked form (a client echoing an answer back), else `given` itself. A `given` URL that still holds
 * the mask `***` where a credential goes, but is not that echo, is refused with 400 naming `param`: storing it
 * would silently replace the real credential with the mask.
 * @example
 * unmaskedUrl('https://***@host/v1', 'https://bob:pw@host/v1', 'config.api_base'); // 'https://bob:pw@host/v1'
 */
export function unmaskedUrl(given: unknown, stored: unknown, param: string): unknown {
  if (typeof given !== 'string') return given;
  if (typeof stored === 'string' && given === maskUrlCredentials(stored)) return stored;
  if (holdsMaskedCredential(given)) {
    throw Errors.validation([`The URL in '${param}' holds a masked credential (***): send the whole URL, or the masked one unchanged to keep the stored URL.`], { param });
  }
  return given;
}
