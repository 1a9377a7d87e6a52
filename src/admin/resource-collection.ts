// A collection of named admin resources in storage: validation, server-set timestamps and authors, 404 and 409.
import { Errors } from '../errors/error-registry.js';
import type { Storage } from '../storage/storage-facade.js';
import type { Validator } from '../validation/schema-validator.js';
import { SERVER_SET_FIELDS } from './schemas/common-schemas.js';

/** Fields every stored resource carries. */
export interface ResourceRecord {
  name: string;
  created_at: string;
  modified_at: string;
  created_by: string;
  modified_by: string;
  [field: string]: unknown;
}

/** How one collection is stored and checked. */
export interface CollectionSpec {
  /** The resource kind in messages, e.g. `route`. */
  kind: string;
  /** The storage key prefix, e.g. `routes`. */
  prefix: string;
  /** Validates a whole resource (after merging), filling defaults; throws 400. */
  validate: Validator<Record<string, unknown>>;
  /** Every field of the spec's table, so answers show each one (null when unset). */
  fields: readonly string[];
  /**
   * Fields stored in a form the schema does not describe (a sealed secret, longer than the clear value it allows): an
   * update that leaves one out keeps the stored form unchecked; a new value given is checked as the schema says.
   */
  sealedFields?: readonly string[];
}

/**
 * Wraps the write of a record with the writes that belong to it, under the record's lock: it must call `write`, and
 * undo its own writes if `write` or one of them fails.
 */
export type WriteAround = (write: () => Promise<void>, record: ResourceRecord) => Promise<void>;

const justWrite: WriteAround = (write) => write();

/** Removes the fields only the server sets, and top-level nulls (a null clears a field, as answers show unset fields as null). */
export function withoutServerFields(body: Record<string, unknown>): Record<string, unknown> {
  const copy = { ...body };
  for (const field of SERVER_SET_FIELDS) delete copy[field];
  for (const [field, value] of Object.entries(copy)) if (value === null) delete copy[field];
  return copy;
}

/**
 * Checks a body's `name` against the name the resource must have: absent or equal passes; another string is 400
 * `name_mismatch`, any other value 400 naming its type (never turned into text through its own `toString`, which a
 * JSON object such as `{"toString": 1}` breaks).
 */
function checkBodyName(given: unknown, expected: string): void {
  if (given === undefined || given === expected) return;
  if (typeof given !== 'string') throw Errors.validation(["The field 'name' must be of type string."], { param: 'name' });
  throw Errors.nameMismatch([given, expected], { param: 'name' });
}

/**
 * CRUD over one kind of named resource. Every write validates the whole resource first,
 * so a failed request stores nothing.
 */
export class ResourceCollection {
  constructor(
    private readonly storage: Storage,
    readonly spec: CollectionSpec,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The storage key of a resource. */
  key(name: string): string {
    return `${this.spec.prefix}/${name}`;
  }

  /** Fills every spec field, so answers always show the whole table. */
  present(record: Record<string, unknown>): Record<string, unknown> {
    const shown: Record<string, unknown> = {};
    for (const field of this.spec.fields) shown[field] = record[field] ?? null;
    return shown;
  }

  async list(): Promise<ResourceRecord[]> {
    const entries = await this.storage.list<ResourceRecord>(`${this.spec.prefix}/`);
    return entries.map((entry) => entry.value);
  }

  async find(name: string): Promise<ResourceRecord | undefined> {
    return this.storage.get<ResourceRecord>(this.key(name));
  }

  async get(name: string): Promise<ResourceRecord> {
    const record = await this.find(name);
    if (!record) throw Errors.notFound([this.spec.kind, name]);
    return record;
  }

  /** Validates `body` as a new resource, without storing it. */
  prepareCreate(body: Record<string, unknown>, actor: string, pathName?: string): ResourceRecord {
    const candidate = withoutServerFields(structuredClone(body));
    if (pathName !== undefined) {
      checkBodyName(candidate.name, pathName);
      candidate.name = pathName;
    }
    const valid = this.spec.validate(candidate);
    const stamp = this.now().toISOString();
    return { ...valid, created_at: stamp, modified_at: stamp, created_by: actor, modified_by: actor } as ResourceRecord;
  }

  /** Validates the merge of `current` and `body` (top-level fields of `body` replace those of `current`). */
  prepareUpdate(current: ResourceRecord, body: Record<string, unknown>, actor: string): ResourceRecord {
    const given = structuredClone(body);
    const changes = withoutServerFields(given);
    checkBodyName(changes.name, current.name);
    const merged = withoutServerFields({ ...current, ...changes, name: current.name });
    for (const [field, value] of Object.entries(given)) if (value === null) delete merged[field];
    const kept: Record<string, unknown> = {};
    for (const field of this.spec.sealedFields ?? []) {
      if (Object.hasOwn(changes, field) || merged[field] === undefined) continue;
      kept[field] = merged[field];
      delete merged[field];
    }
    const valid = this.spec.validate(merged);
    return {
      ...valid,
      ...kept,
      created_at: current.created_at,
      created_by: current.created_by,
      modified_at: this.now().toISOString(),
      modified_by: actor,
    } as ResourceRecord;
  }

  /**
   * Stores a prepared record unless one of that name exists (409). `extra` runs under the same lock, before the write.
   * `around`, when given, runs under the lock too and must call `write` (the record's own write): it writes what
   * belongs to the record and undoes its own writes when anything fails, so the operation is all or nothing.
   */
  async insert(record: ResourceRecord, extra?: () => Promise<void>, around: WriteAround = justWrite): Promise<void> {
    await this.storage.locked(this.key(record.name), async () => {
      if (await this.find(record.name)) throw Errors.alreadyExists([this.spec.kind, record.name], { param: 'name' });
      await extra?.();
      await around(() => this.storage.set(this.key(record.name), record), record);
    });
  }

  /** Re-reads, prepares and stores an update under the resource's lock (404 when gone); `around` as for {@link insert}. */
  async update(
    name: string,
    body: Record<string, unknown>,
    actor: string,
    check?: (current: ResourceRecord, next: ResourceRecord) => void | Promise<void>,
    around: WriteAround = justWrite,
  ): Promise<ResourceRecord> {
    return this.storage.locked(this.key(name), async () => {
      const current = await this.get(name);
      const next = this.prepareUpdate(current, body, actor);
      await check?.(current, next);
      await around(() => this.storage.set(this.key(name), next), next);
      return next;
    });
  }

  /**
   * Deletes a resource (404 when absent). `before` runs under the lock on the current record, before the record
   * goes: it may refuse (throw), and it removes the records that depend on the resource first, so a crash midway
   * leaves the resource, never orphans a re-created one could inherit.
   */
  async remove(name: string, before?: (current: ResourceRecord) => void | Promise<void>): Promise<ResourceRecord> {
    return this.storage.locked(this.key(name), async () => {
      const current = await this.get(name);
      await before?.(current);
      await this.storage.delete(this.key(name));
      return current;
    });
  }

  /** Runs `work` under the resource's lock after checking that it exists (404 otherwise): for writes that depend on it. */
  async whileExists<T>(name: string, work: (current: ResourceRecord) => Promise<T>): Promise<T> {
    return this.storage.locked(this.key(name), async () => work(await this.get(name)));
  }
}
