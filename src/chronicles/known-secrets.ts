// The secrets the request log and log lines must never hold: every stored provider key, registry token and URL credential (opened once, reloaded on change) and the configured admin keys.
import type { SecretBox } from '../secrets/secret-box.js';
import { MIN_SCRUBBED_SECRET_LENGTH } from '../secrets/secret-scrubber.js';
import { urlCredentials } from '../secrets/url-credentials.js';
import type { Storage } from '../storage/storage-facade.js';

/**
 * Storage prefixes whose records hold secrets: the fields sealed with the secret box, and the URLs (stored as an
 * admin gave them) whose userinfo and credential parameters are secrets.
 */
const SOURCES: Array<{ prefix: string; sealed: readonly string[]; urls: ReadonlyArray<(record: Record<string, unknown>) => unknown> }> = [
  { prefix: 'provider-keys/', sealed: ['api_key', 'api_key_secret_key'], urls: [] },
  { prefix: 'mcp-registries/', sealed: ['authorization_token'], urls: [(record) => record.url] },
  { prefix: 'providers/', sealed: [], urls: [(record) => (record.config as Record<string, unknown> | undefined)?.api_base] },
];

/**
 * Keeps the clear values of every stored provider key and registry token, the credentials inside provider and registry
 * URLs, and the configured admin keys, for scrubbing
 * Chronicles entries, log lines and kept responses.
 * The set is loaded on first use and reloaded after any write under the secret prefixes; a secret removed
 * from storage is kept until the next reload finishes, so an entry recorded just before a rotation is still scrubbed.
 */
export class KnownSecrets {
  private loading: Promise<string[]> | undefined;
  private previous: string[] = [];
  /** The secrets of the configuration (admin keys, at least 8 characters long): always part of the set. */
  readonly configured: readonly string[];

  constructor(
    private readonly storage: Storage,
    private readonly box: SecretBox,
    configured: readonly string[] = [],
  ) {
    this.configured = configured.filter((secret) => typeof secret === 'string' && secret.length >= MIN_SCRUBBED_SECRET_LENGTH);
    storage.onWrite((key) => {
      if (key === undefined || SOURCES.some((source) => key.startsWith(source.prefix))) this.loading = undefined;
    });
  }

  /** The current secrets (clear values, at least 8 characters long), the configured ones included. */
  async current(): Promise<string[]> {
    if (!this.loading) {
      const load = this.load();
      this.loading = load;
      load.catch(() => {
        if (this.loading === load) this.loading = undefined;
      });
    }
    const loaded = await this.loading;
    const all = [...new Set([...loaded, ...this.previous])];
    this.previous = loaded;
    return all;
  }

  private async load(): Promise<string[]> {
    const found = new Set<string>(this.configured);
    for (const { prefix, sealed, urls } of SOURCES) {
      for (const { value } of await this.storage.list<Record<string, unknown>>(prefix)) {
        for (const urlOf of urls) {
          const url = urlOf(value);
          for (const credential of urlCredentials(typeof url === 'string' ? url : undefined)) if (credential.length >= MIN_SCRUBBED_SECRET_LENGTH) found.add(credential);
        }
        for (const field of sealed) {
          const stored = value[field];
          if (typeof stored !== 'string') continue;
          try {
            const clear = this.box.open(stored);
            if (clear.length >= MIN_SCRUBBED_SECRET_LENGTH) found.add(clear);
          } catch {
            // sealed with another secret: it cannot be used on a request either
          }
        }
      }
    }
    return [...found];
  }
}
