// Per-tool state of a registry: enabled or disabled, the pinned fingerprint (rug-pull protection) and the last scan.
import { LRUCache } from 'lru-cache';
import type { Storage } from '../storage/storage-facade.js';
import { scanTool, ToolNameMentions, toolFingerprint, type ToolScanResult } from './tool-scan/tool-scanner.js';
import type { UpstreamTool } from './mcp-upstream.js';
import { encodeUriComponentSafe } from '../http/uri-component.js';
import { DEFAULT_TOOL_LIST_MAX_AGE_MS } from './upstream-body.js';

/** Why a tool is disabled. */
export type DisabledReason = 'admin' | 'rug_pull' | 'scan_critical';

/** The stored state of one tool (written only by admin actions and at registration). */
export interface ToolState {
  name: string;
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  /** SHA-256 of the name, description and input schema pinned at registration, at an admin's write, or when last enabled. */
  pinned_fingerprint: string;
  pinned_at: string;
  /** True when the tool server now describes the tool differently from the pin. */
  changed: boolean;
  scan: ToolScanResult;
}

/** The state a read computes: the stored one, or, for a tool not pinned yet, its first-seen state (pin fields null). */
export interface EffectiveToolState extends Omit<ToolState, 'pinned_fingerprint' | 'pinned_at' | 'scan'> {
  pinned_fingerprint: string | null;
  pinned_at: string | null;
  scan?: ToolScanResult;
}

/** A tool as the Tools tab shows it. */
export interface ToolView extends EffectiveToolState {
  scan: ToolScanResult;
  description: string | null;
}

/** What this process has seen of a tool the tool server lists; kept in memory only, so reads never write. */
interface Observation {
  /** The fingerprint of the latest listing. */
  fingerprint: string;
  /** The fingerprint first seen, standing in for the pin while the tool is not pinned. */
  first: string;
  critical: boolean;
  /** A rug pull was seen: the tool stays disabled until an admin enables it, even if the server reverts. */
  pulled: boolean;
  /**
   * The stored pin the rug pull was seen against ({@link pinIdentity}; '' for none). When the stored pin is another
   * one, an admin pinned the tool since, maybe through another replica: the pull is judged again against that pin.
   */
  pulledUnder?: string;
  /** When the tool was last seen in a listing, in ms since the epoch. */
  listedAt: number;
}

/** Tools observed per process, at most; the oldest are forgotten (a forgotten tool is re-listed on its next call). */
const MAX_OBSERVED_TOOLS = 100_000;

/**
 * A tool name as one storage key segment: URL-encoded, and the names encodeURIComponent leaves unusable as a segment
 * (`.`, `..`, '', which a tool server may list) escaped further, so such a tool cannot break its registry's writes.
 */
export function toolKeySegment(tool: string): string {
  const encoded = encodeUriComponentSafe(tool);
  if (encoded === '') return '%';
  return encoded === '.' || encoded === '..' ? encoded.replace(/\./g, '%2E') : encoded;
}

/** Where tool states are stored: `mcp-tools/<registry>/<tool>`. */
export const TOOL_STATES_PREFIX = 'mcp-tools/';

/** Which pin a stored state holds: its fingerprint and when it was pinned (an admin's enable pins again, with a new time). */
const pinIdentity = (stored: Readonly<ToolState>): string => `${stored.pinned_fingerprint}\u0000${stored.pinned_at}`;
const stateKey = (registry: string, tool: string): string => `${TOOL_STATES_PREFIX}${registry}/${toolKeySegment(tool)}`;
const observationKey = (registry: string, tool: string): string => `${registry}\u0000${tool}`;

/**
 * Tool states under `mcp-tools/<registry>/<tool>`. Listing (the Tools tab, `tools/list` through the proxy, a call's
 * check) never writes: a rug pull seen by a read disables the tool in memory at once, and the stored pin keeps it
 * detected after a restart. Pins are written at registration and by an admin's toggle ({@link pinNew}, {@link setEnabled}).
 */
export class ToolStateStore {
  private readonly observed = new LRUCache<string, Observation>({ max: MAX_OBSERVED_TOOLS });

  /**
   * @param maxListAgeMs how long a listing of a tool stays good for its calls ({@link isFresh}); default
   * {@link DEFAULT_TOOL_LIST_MAX_AGE_MS}.
   */
  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date = () => new Date(),
    private readonly maxListAgeMs: number = DEFAULT_TOOL_LIST_MAX_AGE_MS,
  ) {}

  /**
   * Whether this process saw `tool` in a listing of `registry` less than the list's maximum age ago. A call to a tool
   * that is not fresh lists the tool server's tools first, so a tool changed since its pin is caught within that age
   * even when no client lists tools again.
   */
  isFresh(registry: string, tool: string): boolean {
    const seen = this.observed.get(observationKey(registry, tool));
    return seen !== undefined && this.now().getTime() - seen.listedAt < this.maxListAgeMs;
  }

  /**
   * The effective state of one tool for a call's check: the stored state against the latest listing seen.
   * Undefined when the tool is neither pinned nor seen in a listing yet.
   */
  async state(registry: string, tool: string): Promise<Readonly<EffectiveToolState> | undefined> {
    const stored = await this.storage.getCached<ToolState>(stateKey(registry, tool));
    const seen = this.observed.get(observationKey(registry, tool));
    if (!stored && !seen) return undefined;
    return this.effective(tool, stored, seen);
  }

  private effective(name: string, stored: Readonly<ToolState> | undefined, seen: Observation | undefined): EffectiveToolState {
    const pinned = stored ? pinIdentity(stored) : '';
    if (seen?.pulled && stored && seen.pulledUnder !== pinned) {
      // Pinned again since the pull was seen (an admin enabled the tool through any replica): that pin decides now.
      seen.pulled = false;
      seen.first = stored.pinned_fingerprint;
    }
    const pin = stored?.pinned_fingerprint ?? seen?.first;
    const changed = seen !== undefined && pin !== undefined && seen.fingerprint !== pin;
    if (seen && changed && !seen.pulled) Object.assign(seen, { pulled: true, pulledUnder: pinned });
    const base: EffectiveToolState = stored
      ? { ...stored }
      : {
          name,
          enabled: !seen?.critical,
          disabled_reason: seen?.critical ? 'scan_critical' : null,
          pinned_fingerprint: null,
          pinned_at: null,
          changed: false,
        };
    if (seen?.pulled) return { ...base, enabled: false, disabled_reason: 'rug_pull', changed };
    return { ...base, changed: false };
  }

  /**
   * Scans every listed tool and compares it with its pin, without writing anything. A tool not pinned yet is shown
   * in its first-seen state: enabled unless its scan is critical. A tool whose fingerprint no longer matches its pin
   * is flagged `changed` and disabled until an admin enables it again.
   */
  async reconcile(registry: string, tools: UpstreamTool[]): Promise<ToolView[]> {
    const toolNames = new ToolNameMentions(tools.map((tool) => tool.name));
    const views: ToolView[] = [];
    for (const tool of tools) {
      const scan = scanTool(tool, { toolNames });
      const seen = this.observe(registry, tool, scan);
      const stored = await this.storage.getCached<ToolState>(stateKey(registry, tool.name));
      views.push({ ...this.effective(tool.name, stored, seen), scan, description: tool.description ?? null });
    }
    return views;
  }

  private observe(registry: string, tool: UpstreamTool, scan: ToolScanResult): Observation {
    const key = observationKey(registry, tool.name);
    const fingerprint = toolFingerprint(tool);
    const critical = scan.risk === 'critical';
    const listedAt = this.now().getTime();
    const seen = this.observed.get(key);
    if (seen) {
      seen.fingerprint = fingerprint;
      seen.critical = critical;
      seen.listedAt = listedAt;
      return seen;
    }
    const fresh: Observation = { fingerprint, first: fingerprint, critical, pulled: false, listedAt };
    this.observed.set(key, fresh);
    return fresh;
  }

  /**
   * Pins every listed tool that has no stored state yet (at registration, or with an admin's first write). A tool
   * that changed since this process first saw it is pinned as first seen, so it stays flagged as a rug pull.
   * A pinned tool is not written again, nor is the tool named `except` (one a toggle writes itself). Each tool it
   * pins is added to `created`, so a caller can {@link unpin} them when this or a later write of its operation fails.
   */
  async pinNew(registry: string, tools: UpstreamTool[], created: string[] = [], except?: string): Promise<void> {
    const toolNames = new ToolNameMentions(tools.map((tool) => tool.name));
    for (const tool of tools) {
      if (tool.name === except) continue;
      const scan = scanTool(tool, { toolNames });
      const seen = this.observe(registry, tool, scan);
      if (await this.storage.get(stateKey(registry, tool.name))) continue;
      await this.storage.update<ToolState>(stateKey(registry, tool.name), (current) => {
        if (current) return current;
        created.push(tool.name);
        const pulled = seen.pulled || seen.first !== seen.fingerprint;
        return {
          name: tool.name,
          enabled: !pulled && !seen.critical,
          disabled_reason: pulled ? 'rug_pull' : seen.critical ? 'scan_critical' : null,
          pinned_fingerprint: seen.first,
          pinned_at: this.now().toISOString(),
          changed: pulled,
          scan,
        };
      });
    }
  }

  /** Enables or disables a tool and scans it. Enabling re-pins the tool's current fingerprint. */
  async setEnabled(registry: string, tool: UpstreamTool, enabled: boolean, otherToolNames: string[]): Promise<ToolView> {
    const scan = scanTool(tool, { otherToolNames });
    const fingerprint = toolFingerprint(tool);
    const stamp = this.now().toISOString();
    const seen = this.observe(registry, tool, scan);
    const next = await this.storage.update<ToolState>(stateKey(registry, tool.name), (current) => ({
      name: tool.name,
      enabled,
      disabled_reason: enabled ? null : 'admin',
      pinned_fingerprint: enabled || !current ? fingerprint : current.pinned_fingerprint,
      pinned_at: enabled || !current ? stamp : current.pinned_at,
      changed: enabled ? false : current ? current.pinned_fingerprint !== fingerprint : false,
      scan,
    }));
    if (enabled) Object.assign(seen, { first: fingerprint, pulled: false });
    return { ...(next as ToolState), description: tool.description ?? null };
  }

  /** Deletes the stored states of `tools` (pins an operation wrote before it failed); tries each, whatever fails. */
  async unpin(registry: string, tools: readonly string[]): Promise<void> {
    await Promise.allSettled(tools.map((tool) => this.storage.delete(stateKey(registry, tool))));
  }

  /** The storage keys of every stored tool state of a registry (for a delete that removes them with its record). */
  async storedKeys(registry: string): Promise<string[]> {
    return (await this.storage.list(`${TOOL_STATES_PREFIX}${registry}/`)).map((entry) => entry.key);
  }

  /** Forgets what this process saw of a registry's tools (once the registry is gone). */
  forgetObserved(registry: string): void {
    const prefix = observationKey(registry, '');
    for (const key of [...this.observed.keys()]) if (key.startsWith(prefix)) this.observed.delete(key);
  }
}
