// Per-tool state of a registry: enabled or disabled, the pinned fingerprint (rug-pull protection) and the last scan.
import type { Storage } from '../storage/storage-facade.js';
import { scanTool, toolFingerprint, type ToolScanResult } from './tool-scan/tool-scanner.js';
import type { UpstreamTool } from './mcp-upstream.js';

/** Why a tool is disabled. */
export type DisabledReason = 'admin' | 'rug_pull' | 'scan_critical';

/** The stored state of one tool. */
export interface ToolState {
  name: string;
  enabled: boolean;
  disabled_reason: DisabledReason | null;
  /** SHA-256 of the name, description and input schema pinned when the tool was first seen or last enabled. */
  pinned_fingerprint: string;
  pinned_at: string;
  /** True when the tool server now describes the tool differently from the pin. */
  changed: boolean;
  scan: ToolScanResult;
}

/** A tool as the Tools tab shows it. */
export interface ToolView extends ToolState {
  description: string | null;
}

const stateKey = (registry: string, tool: string): string => `mcp-tools/${registry}/${encodeURIComponent(tool)}`;

/** Tool states under `mcp-tools/<registry>/<tool>`. */
export class ToolStateStore {
  constructor(
    private readonly storage: Storage,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** The state of one tool, from the request-path cache. */
  state(registry: string, tool: string): Promise<Readonly<ToolState> | undefined> {
    return this.storage.getCached<ToolState>(stateKey(registry, tool));
  }

  /**
   * Scans every listed tool and reconciles it with its stored state. A tool seen for the first time is
   * pinned, and enabled unless its scan is critical. A tool whose fingerprint no longer matches its pin
   * is flagged `changed` and disabled until an admin enables it again.
   */
  async reconcile(registry: string, tools: UpstreamTool[]): Promise<ToolView[]> {
    const names = tools.map((tool) => tool.name);
    const views: ToolView[] = [];
    for (const tool of tools) {
      const scan = scanTool(tool, { otherToolNames: names.filter((name) => name !== tool.name) });
      const fingerprint = toolFingerprint(tool);
      const next = await this.storage.update<ToolState>(stateKey(registry, tool.name), (current) => {
        if (!current) {
          const critical = scan.risk === 'critical';
          return {
            name: tool.name,
            enabled: !critical,
            disabled_reason: critical ? 'scan_critical' : null,
            pinned_fingerprint: fingerprint,
            pinned_at: this.now().toISOString(),
            changed: false,
            scan,
          };
        }
        if (current.pinned_fingerprint !== fingerprint) return { ...current, enabled: false, disabled_reason: 'rug_pull', changed: true, scan };
        return { ...current, changed: false, scan };
      });
      views.push({ ...(next as ToolState), description: tool.description ?? null });
    }
    return views;
  }

  /** Enables or disables a tool and scans it. Enabling re-pins the tool's current fingerprint. */
  async setEnabled(registry: string, tool: UpstreamTool, enabled: boolean, otherToolNames: string[]): Promise<ToolView> {
    const scan = scanTool(tool, { otherToolNames });
    const fingerprint = toolFingerprint(tool);
    const stamp = this.now().toISOString();
    const next = await this.storage.update<ToolState>(stateKey(registry, tool.name), (current) => ({
      name: tool.name,
      enabled,
      disabled_reason: enabled ? null : 'admin',
      pinned_fingerprint: enabled || !current ? fingerprint : current.pinned_fingerprint,
      pinned_at: enabled || !current ? stamp : current.pinned_at,
      changed: enabled ? false : current ? current.pinned_fingerprint !== fingerprint : false,
      scan,
    }));
    return { ...(next as ToolState), description: tool.description ?? null };
  }

  /** Forgets every tool of a registry. */
  async removeAll(registry: string): Promise<void> {
    for (const { key } of await this.storage.list(`mcp-tools/${registry}/`)) await this.storage.delete(key);
  }
}
