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

const policiesKey = (registry: string): string => `mcp-policies/${registry}`;

/** What the admin API and the proxy share about registries. */
export class RegistryService {
  readonly tools: ToolStateStore;

  constructor(
    readonly storage: Storage,
    readonly box: SecretBox,
    readonly registries: ResourceCollection,
    now?: () => Date,
  ) {
    this.tools = new ToolStateStore(storage, now);
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
    // The MCP SDK client (about 20 MB with zod) is loaded the first time a registry's tools are listed, not at start.
    const { listUpstreamTools } = await import('./mcp-upstream.js');
    const upstream = await listUpstreamTools(name, record.url, this.token(record));
    return { upstream, views: await this.tools.reconcile(name, upstream) };
  }

  /**
   * Pins the tools of the registry that are not pinned yet (at registration and on an admin's write). Best effort:
   * a tool server that cannot be reached leaves its tools unpinned until the next admin write.
   * @returns the listed tools, or undefined when the tool server could not be reached.
   */
  async pinTools(name: string): Promise<UpstreamTool[] | undefined> {
    let upstream: UpstreamTool[];
    try {
      upstream = (await this.listTools(name)).upstream;
    } catch {
      return undefined;
    }
    await this.tools.pinNew(name, upstream);
    return upstream;
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

  /** Deletes what belongs to a registry besides its record. */
  async forget(name: string): Promise<void> {
    await this.tools.removeAll(name);
    await this.storage.delete(policiesKey(name));
  }
}
