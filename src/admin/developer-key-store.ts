// Application developer keys: created once in clear, stored hashed, listed masked, revoked at once.
import { Errors } from '../errors/error-registry.js';
import { generateDeveloperKey, hashDeveloperKey } from '../secrets/developer-keys.js';
import type { Storage } from '../storage/storage-facade.js';

/** A developer key as stored and listed (never the clear key). */
export interface DeveloperKeyRecord {
  id: string;
  application: string;
  name: string | null;
  masked: string;
  hash: string;
  created_at: string;
  created_by: string;
}

/** The lookup record under `developer-keys/<hash>`. */
interface DeveloperKeyIndex {
  application: string;
  id: string;
}

/** Who a valid developer key belongs to. */
export interface DeveloperKeyOwner {
  application: string;
  keyId: string;
}

/** Developer keys under `application-keys/<app>/<id>`, with a hash index for request-time lookup. */
export class DeveloperKeyStore {
  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates a key for `application`; the answer is the only time the clear key is shown. */
  async create(application: string, actor: string, name?: string): Promise<{ key: string; record: DeveloperKeyRecord }> {
    const fresh = generateDeveloperKey();
    const record: DeveloperKeyRecord = {
      id: fresh.id,
      application,
      name: name ?? null,
      masked: fresh.masked,
      hash: fresh.hash,
      created_at: this.now().toISOString(),
      created_by: actor,
    };
    await this.storage.set<DeveloperKeyIndex>(`developer-keys/${fresh.hash}`, { application, id: fresh.id });
    await this.storage.set(`application-keys/${application}/${fresh.id}`, record);
    return { key: fresh.key, record };
  }

  /** The keys of an application, as records (hash included; strip it before answering). */
  async list(application: string): Promise<DeveloperKeyRecord[]> {
    const entries = await this.storage.list<DeveloperKeyRecord>(`application-keys/${application}/`);
    return entries.map((entry) => entry.value);
  }

  /** Revokes one key; the next request with it is refused. */
  async revoke(application: string, id: string): Promise<void> {
    const record = await this.storage.get<DeveloperKeyRecord>(`application-keys/${application}/${id}`);
    if (!record) throw Errors.notFound(['developer key', id]);
    await this.storage.delete(`developer-keys/${record.hash}`);
    await this.storage.delete(`application-keys/${application}/${id}`);
  }

  /** Revokes every key of an application. */
  async revokeAll(application: string): Promise<void> {
    for (const record of await this.list(application)) await this.revoke(application, record.id);
  }

  /** The owner of a presented key, or undefined when it is unknown or revoked. */
  async identify(presented: string): Promise<DeveloperKeyOwner | undefined> {
    const index = await this.storage.getCached<DeveloperKeyIndex>(`developer-keys/${hashDeveloperKey(presented)}`);
    return index ? { application: index.application, keyId: index.id } : undefined;
  }

  /** A record as answers show it, without its hash. */
  static present(record: DeveloperKeyRecord): Omit<DeveloperKeyRecord, 'hash'> {
    const { hash: _hash, ...shown } = record;
    return shown;
  }
}
