// The registries of one gateway: records with sealed tokens, their tool states and policies, and their tool lists.
import type { ResourceCollection } from '../admin/resource-collection.js';
import type { GuardrailEngine } from '../guardrails/guardrail-engine.js';
import { Errors } from '../errors/error-registry.js';
import type { SecretBox } from '../secrets/secret-box.js';
import type { Storage } from '../storage/storage-facade.js';
import type { UpstreamTool } from './mcp-upstream.js';
import type { RegistryRecord } from './registry-records.js';
import { unregisteredFamilies, validateRegistryPolicies, type RegistryPolicies } from './registry-policies.js';
import { ToolStateStore, type ToolView } from './tool-state-store.js';

/** Where registry policies are stored: `mcp-policies/<registry>`. */
export const REGISTRY_POLICIES_PREFIX = 'mcp-policies/';

const policiesKey = (registry: string): string => `${REGISTRY_POLICIES_PREFIX}${registry}`;

/** What the admin API and the proxy share about registries. */
export class RegistryService {
  readonly tools: ToolStateStore;
  /** The listings under way, per registry: calls that need a fresh list at the same time share one. */
  private readonly refreshing = new Map<string, Promise<unknown>>();

  /** @param toolListMaxAgeMs how long a tool's listing stays good for its calls (see {@link ToolStateStore.isFresh}). */
  constructor(
    readonly storage: Storage,
    readonly box: SecretBox,
    readonly registries: ResourceCollection,
    now?: () => Date,
    toolListMaxAgeMs?: number,
  ) {
    this.tools = new ToolStateStore(storage, now, toolListMaxAgeMs);
  }

  /** A registry from the request-path cache; 404 when unknown. */
  async registry(name: string): Promise<Readonly<RegistryRecord>> {
    const record = await this.storage.getCached<RegistryRecord>(this.registries.key(name));
    if (!record) throw Errors.notFound(['MCP registry', name]);
    return record;
  }

  /** The registry's token in clear, for the upstream only. */
  token(record: Readonly<RegistryRecord>): string | undefined {
    return record.authorization_token === undefined ? undefined : this.box.open(record.authorization_token);
  }

  /** The tool server's tools, compared with their pins and freshly scanned. A read: nothing is written. */
  async listTools(name: string): Promise<{ upstream: UpstreamTool[]; views: ToolView[] }> {
    const record = await this.registry(name);
    const upstream = await this.upstreamTools(record);
    return { upstream, views: await this.tools.reconcile(name, upstream) };
  }

  /**
   * Lists the registry's tools for the calls that need a fresh listing, once for all the calls that ask while it is
   * under way (so a burst of calls after the list's maximum age makes one listing, not one each).
   */
  async refreshTools(name: string): Promise<void> {
    let pending = this.refreshing.get(name);
    if (!pending) {
      pending = this.listTools(name).finally(() => this.refreshing.delete(name));
      this.refreshing.set(name, pending);
    }
    await pending;
  }

  /** The tools the registry's tool server lists now (its URL and token as `record` has them). */
  private async upstreamTools(record: Readonly<RegistryRecord>): Promise<UpstreamTool[]> {
    // The MCP SDK client (about 20 MB with zod) is loaded the first time a registry's tools are listed, not at start.
    const { listUpstreamTools } = await import('./mcp-upstream.js');
    return listUpstreamTools(record.name, record.url, this.token(record));
  }

  /**
   * Stores a registry with its tools pinned (at registration and on an admin's write), all or nothing: the tools of
   * `record` that are not pinned yet are pinned first, then `write` stores the record; when a pin or `write` fails,
   * the pins written here are deleted again before the error goes on, so neither a registry without its answer nor
   * pins of a registry that was not stored are left. Runs under the registry's lock (see `ResourceCollection`).
   * Pinning is best effort: a tool server that cannot be reached leaves its tools unpinned until the next admin write.
   */
  async pinAround(record: Readonly<RegistryRecord>, write: () => Promise<void>): Promise<void> {
    let upstream: UpstreamTool[] | undefined;
    try {
      upstream = await this.upstreamTools(record);
    } catch {
      upstream = undefined;
    }
    const created: string[] = [];
    try {
      if (upstream) await this.tools.pinNew(record.name, upstream, created);
      await write();
    } catch (error) {
      await this.tools.unpin(record.name, created);
      throw error;
    }
  }

  /**
   * An admin's toggle of one tool, all or nothing, under the registry's lock (404 when the registry is gone): lists the
   * tool server's tools from the record as stored under the lock, so an update that changes the URL or token at the
   * same time comes wholly before or after it and never leaves pins of the old tool list; pins the other listed tools
   * not pinned yet, then writes the tool's state ({@link ToolStateStore.setEnabled}). When a write fails, the pins
   * written here are deleted again before the error goes on.
   */
  async toggleTool(name: string, toolName: string, enabled: boolean): Promise<ToolView> {
    return this.registries.whileExists(name, async (current) => {
      const upstream = await this.upstreamTools(current as RegistryRecord);
      const tool = upstream.find((candidate) => candidate.name === toolName);
      if (!tool) throw Errors.mcpToolNotFound([name, toolName]);
      const created: string[] = [];
      try {
        await this.tools.pinNew(name, upstream, created, tool.name);
        const others = upstream.filter((candidate) => candidate !== tool).map((candidate) => candidate.name);
        return await this.tools.setEnabled(name, tool, enabled, others);
      } catch (error) {
        await this.tools.unpin(name, created);
        throw error;
      }
    });
  }

  /** The registry's policies, defaults filled. */
  async policies(name: string): Promise<RegistryPolicies> {
    return (await this.storedPolicies(name)) ?? validateRegistryPolicies({});
  }

  /** The registry's policies as an admin stored them, or undefined while it runs on the defaults. */
  async storedPolicies(name: string): Promise<RegistryPolicies | undefined> {
    return ((await this.storage.getCached<RegistryPolicies>(policiesKey(name))) as RegistryPolicies | undefined) ?? undefined;
  }

  /** Validates and stores the registry's policies. */
  async setPolicies(name: string, body: unknown, engine?: GuardrailEngine): Promise<RegistryPolicies> {
    const policies = validateRegistryPolicies(structuredClone(body));
    const missing = engine ? unregisteredFamilies(engine, policies) : [];
    if (missing.length > 0) throw Errors.validation([`The policy enables ${missing.join(', ')}, which is not registered on this gateway.`], { param: missing[0]!.split(' ')[0] });
    await this.storage.set(policiesKey(name), policies);
    return policies;
  }

  /**
   * Deletes a registry with its tool states and policies, under its lock (404 when absent). The record goes first, in
   * one batch with the rest (one transaction on PostgreSQL; elsewhere one write after another in that order): once a
   * pin is gone nothing serves the registry, so no tool of a live registry is ever callable without its pin. A write
   * failing at the record leaves everything as it was (500 `mcp_registry_not_deleted`); one failing after it leaves
   * only tool states and policies of a registry that no longer exists (500 `mcp_registry_delete_incomplete`), which a
   * registration under that name ({@link removeLeftovers}) and the start-up repair remove.
   */
  async remove(name: string): Promise<Readonly<RegistryRecord>> {
    return this.registries.whileExists(name, async (current) => {
      const owned = await this.ownedKeys(current.name);
      try {
        await this.storage.batch([this.registries.key(current.name), ...owned].map((key) => ({ op: 'delete' as const, key })));
      } catch (error) {
        if (await this.registries.find(current.name)) throw Errors.mcpRegistryNotDeleted([current.name], { cause: error });
        this.tools.forgetObserved(current.name);
        throw Errors.mcpRegistryDeleteIncomplete([current.name], { cause: error });
      }
      this.tools.forgetObserved(current.name);
      return current as RegistryRecord;
    });
  }

  /**
   * Removes the tool states and policies a registry that does not exist left behind (a delete cut short after its
   * record), so a registry created under that name inherits none of them. Call it under the registry's lock, before
   * the new record is stored.
   */
  async removeLeftovers(name: string): Promise<void> {
    for (const key of await this.ownedKeys(name)) await this.storage.delete(key);
    this.tools.forgetObserved(name);
  }

  /** The storage keys of a registry's tool states and policies. */
  private async ownedKeys(name: string): Promise<string[]> {
    const keys = await this.tools.storedKeys(name);
    if ((await this.storage.get(policiesKey(name))) !== undefined) keys.push(policiesKey(name));
    return keys;
  }
}
