// Gives every MCP tool a unique function name a chat model accepts (≤ 64 of [a-zA-Z0-9_-]) and maps it back.
import { createHash } from 'node:crypto';

/** Where a function name leads: a tool on one MCP server. */
export interface ToolTarget {
  server: string;
  tool: string;
}

const MAX_NAME = 64;

/** Names tools `<server>__<tool>`, cleaned, shortened with a hash when too long or taken. */
export class ToolNameMap {
  private readonly targets = new Map<string, ToolTarget>();
  private readonly names = new Map<string, string>();

  /** Registers a tool and answers its function name. The same inputs in the same order give the same names. */
  add(server: string, tool: string): string {
    const clean = `${server}__${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_');
    let name = clean.slice(0, MAX_NAME);
    if (name !== clean || this.targets.has(name)) {
      const hash = createHash('sha256').update(`${server}\u0000${tool}`).digest('hex').slice(0, 8);
      name = `${clean.slice(0, MAX_NAME - 9)}_${hash}`;
      for (let n = 2; this.targets.has(name); n++) name = `${clean.slice(0, MAX_NAME - 9 - String(n).length)}_${hash}${n}`;
    }
    this.targets.set(name, { server, tool });
    this.names.set(`${server}\u0000${tool}`, name);
    return name;
  }

  /** The function name given to a tool, or undefined when it was not added. */
  nameOf(server: string, tool: string): string | undefined {
    return this.names.get(`${server}\u0000${tool}`);
  }

  /** The tool behind a function name, or undefined for a name this map did not give. */
  resolve(name: string): ToolTarget | undefined {
    return this.targets.get(name);
  }
}
