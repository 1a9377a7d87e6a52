// Application developer keys: created once in clear, stored hashed, listed masked, revoked at once.
import { LRUCache } from 'lru-cache';
import { Errors } from '../errors/error-registry.js';
import { generateDeveloperKey, hashDeveloperKey } from '../secrets/developer-keys.js';
import type { Storage } from '../storage/storage-facade.js';
import { SERVER_SET_FIELDS } from './schemas/common-schemas.js';
import type { Budget, CallerLimitSettings } from '../usage/usage-schemas.js';

/** A developer key as stored and listed (never the clear key). */
export interface DeveloperKeyRecord {
  id: string;
  application: string;
  name: string | null;
  masked: string;
  hash: string;
  created_at: string;
  created_by: string;
  /** When and by which admin key the key's settings were last changed (absent until the first update). */
  modified_at?: string;
  modified_by?: string;
  /** The key's own budget and per-minute limits, besides its application's. */
  budget?: Budget;
  limits?: CallerLimitSettings;
}

/** A developer key as the admin API answers it. */
export interface DeveloperKeyView extends Omit<DeveloperKeyRecord, 'hash' | 'budget' | 'limits' | 'modified_at' | 'modified_by'> {
  modified_at: string;
  modified_by: string;
  budget: Budget | null;
  limits: CallerLimitSettings | null;
}

/** What POST and PUT on a developer key accept (validated with `developerKeySettingsSchema`). */
export interface DeveloperKeySettings {
  name?: string;
  budget?: Budget;
  limits?: CallerLimitSettings;
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

/** Fields of a key the server sets: accepted in a PUT (a client echoes what it read) but ignored. */
const SERVER_SET_KEY_FIELDS: ReadonlySet<string> = new Set(['id', 'application', 'masked', ...SERVER_SET_FIELDS]);

const indexKey = (hash: string): string => `developer-keys/${hash}`;
const keyRecordKey = (application: string, id: string): string => `application-keys/${application}/${id}`;

/** Presented keys longer than this are hashed every time rather than remembered (real keys are 47 characters). */
const MAX_REMEMBERED_KEY_LENGTH = 256;

/**
 * The owner a key's index entry and record grant. The index entry alone is not enough: the key's record must exist
 * with the same hash, so an index entry left by a crash never grants access.
 */
function ownerOf(hash: string, index: Readonly<DeveloperKeyIndex> | undefined, record: Readonly<DeveloperKeyRecord> | undefined): DeveloperKeyOwner | undefined {
  return index && record?.hash === hash ? { application: index.application, keyId: index.id } : undefined;
}

/** Developer keys under `application-keys/<app>/<id>`, with a hash index for request-time lookup. */
export class DeveloperKeyStore {
  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates a key for `application`; the answer is the only time the clear key is shown. */
  async create(application: string, actor: string, name?: string, settings: Omit<DeveloperKeySettings, 'name'> = {}): Promise<{ key: string; record: DeveloperKeyRecord }> {
    const fresh = generateDeveloperKey();
    const record: DeveloperKeyRecord = {
      id: fresh.id,
      application,
      name: name ?? null,
      masked: fresh.masked,
      hash: fresh.hash,
      created_at: this.now().toISOString(),
      created_by: actor,
      ...(settings.budget ? { budget: settings.budget } : {}),
      ...(settings.limits ? { limits: settings.limits } : {}),
    };
    // One transaction where the adapter has batches; elsewhere the grant (the hash index) is written last, so a
    // crash before it leaves a record that grants nothing.
    const index: DeveloperKeyIndex = { application, id: fresh.id };
    await this.storage.batch([
      { op: 'set', key: keyRecordKey(application, fresh.id), value: record },
      { op: 'set', key: indexKey(fresh.hash), value: index },
    ]);
    return { key: fresh.key, record };
  }

  /** The keys of an application, as records (hash included; strip it before answering). */
  async list(application: string): Promise<DeveloperKeyRecord[]> {
    const entries = await this.storage.list<DeveloperKeyRecord>(keyRecordKey(application, ''));
    return entries.map((entry) => entry.value);
  }

  /**
   * Changes a key's name, budget or limits: given fields replace the stored ones, a null removes one (404 when the
   * key does not exist). The key itself and its hash never change.
   */
  async update(application: string, id: string, changes: Record<string, unknown>, validate: (settings: unknown) => DeveloperKeySettings, actor?: string): Promise<DeveloperKeyRecord> {
    const updated = await this.storage.update<DeveloperKeyRecord>(keyRecordKey(application, id), (current) => {
      if (!current) throw Errors.notFound(['developer key', id]);
      const settings: Record<string, unknown> = { name: current.name ?? undefined, budget: current.budget, limits: current.limits };
      for (const [field, value] of Object.entries(changes)) {
        if (!SERVER_SET_KEY_FIELDS.has(field)) settings[field] = value === null ? undefined : value;
      }
      const valid = validate(JSON.parse(JSON.stringify(settings)));
      const { budget: _budget, limits: _limits, ...kept } = current;
      const modified = actor === undefined ? {} : { modified_at: this.now().toISOString(), modified_by: actor };
      return { ...kept, ...modified, name: valid.name ?? null, ...(valid.budget ? { budget: valid.budget } : {}), ...(valid.limits ? { limits: valid.limits } : {}) };
    });
    return updated!;
  }

  /** Called after a key is revoked (also for each key of a deleted application), so other parts drop what they hold for it (its spend). */
  readonly revokedHooks: Array<(application: string, id: string) => Promise<void>> = [];

  /** Revokes one key; the next request with it is refused. */
  async revoke(application: string, id: string): Promise<void> {
    const record = await this.storage.get<DeveloperKeyRecord>(keyRecordKey(application, id));
    if (!record) throw Errors.notFound(['developer key', id]);
    // One transaction where the adapter has batches; elsewhere the grant goes first, so a crash after it leaves a
    // record that grants nothing (and is removed at the next start).
    await this.storage.batch([
      { op: 'delete', key: indexKey(record.hash) },
      { op: 'delete', key: keyRecordKey(application, id) },
    ]);
    for (const hook of this.revokedHooks) await hook(application, id);
  }

  /** Revokes every key of an application. */
  async revokeAll(application: string): Promise<void> {
    for (const record of await this.list(application)) await this.revoke(application, record.id);
  }

  /** Hashes of recently presented keys: the request path hashes a key once, not on every request. Bounded. */
  private readonly hashes = new LRUCache<string, string>({ max: 1024 });

  /** The SHA-256 hex digest of a presented key, remembered for the next request that presents it. */
  private hashOf(presented: string): string {
    if (presented.length > MAX_REMEMBERED_KEY_LENGTH) return hashDeveloperKey(presented);
    let hash = this.hashes.get(presented);
    if (hash === undefined) {
      hash = hashDeveloperKey(presented);
      this.hashes.set(presented, hash);
    }
    return hash;
  }

  /**
   * {@link identify} without a storage read, for the request path: `{ owner }` when the cached records decide it
   * (owner undefined for a key known to be unknown), undefined when storage must be read.
   */
  peekIdentify(presented: string): { owner: DeveloperKeyOwner | undefined } | undefined {
    const hash = this.hashOf(presented);
    const index = this.storage.peekCached<DeveloperKeyIndex>(indexKey(hash));
    if (!index) return undefined;
    if (!index.value) return { owner: undefined };
    const record = this.storage.peekCached<DeveloperKeyRecord>(keyRecordKey(index.value.application, index.value.id));
    return record && { owner: ownerOf(hash, index.value, record.value) };
  }

  /** The owner of a presented key, or undefined when it is unknown or revoked. */
  async identify(presented: string): Promise<DeveloperKeyOwner | undefined> {
    const hash = this.hashOf(presented);
    const index = await this.storage.getCached<DeveloperKeyIndex>(indexKey(hash));
    if (!index) return undefined;
    return ownerOf(hash, index, await this.storage.getCached<DeveloperKeyRecord>(keyRecordKey(index.application, index.id)));
  }

  /**
   * Removes what a crash between the writes of a create, revoke or application delete can leave: index entries
   * whose key record is missing or differs, key records without their index entry, and key records whose
   * application no longer exists. Run at start. A removed key is then revoked for good: the {@link revokedHooks} run
   * for it, as for a revoke, so its budget spend is purged too (also of an index entry whose key record is missing).
   * Resolves the number of records removed.
   */
  async repair(applicationExists: (name: string) => Promise<boolean>): Promise<number> {
    let removed = 0;
    /** The keys removed (or whose record was already gone), by `application/id`. */
    const gone = new Map<string, { application: string; id: string }>();
    for (const { key, value } of await this.storage.list<DeveloperKeyIndex>('developer-keys/')) {
      const hash = key.slice('developer-keys/'.length);
      const record = await this.storage.get<DeveloperKeyRecord>(keyRecordKey(value.application, value.id));
      if (record?.hash !== hash || !(await applicationExists(value.application))) {
        await this.storage.delete(key);
        removed++;
        if (!record) gone.set(keyRecordKey(value.application, value.id), { application: value.application, id: value.id });
      }
    }
    for (const { key, value } of await this.storage.list<DeveloperKeyRecord>('application-keys/')) {
      const index = await this.storage.get<DeveloperKeyIndex>(indexKey(value.hash));
      // A record whose grant was never written (create cut short) is listed but would never work: remove it too.
      if (index?.application === value.application && index.id === value.id && (await applicationExists(value.application))) continue;
      await this.storage.delete(indexKey(value.hash)); // normally gone already (see above)
      await this.storage.delete(key);
      removed++;
      gone.set(key, { application: value.application, id: value.id });
    }
    for (const { application, id } of gone.values()) for (const hook of this.revokedHooks) await hook(application, id);
    return removed;
  }

  /**
   * A record as answers show it, without its hash: every field, unset ones (`budget`, `limits`) as null, and a key
   * never changed since its creation modified when it was created, as the other admin resources read.
   */
  static present(record: DeveloperKeyRecord): DeveloperKeyView {
    const { hash: _hash, ...shown } = record;
    return {
      ...shown,
      modified_at: record.modified_at ?? record.created_at,
      modified_by: record.modified_by ?? record.created_by,
      budget: record.budget ?? null,
      limits: record.limits ?? null,
    };
  }
}
