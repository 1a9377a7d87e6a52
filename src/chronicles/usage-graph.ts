// The usage graph of an application: per tool and server, how often it was called and when last, kept as a running aggregate.
import type { CountChange, CountRow } from '../storage/storage-adapter.js';
import type { ChronicleEntry } from './chronicle-entry.js';

/** One node of the graph, as `GET /applications/:appname/graph` answers it. */
export interface UsageNode {
  tool: string;
  server: string;
  requests: number;
  last_used: string;
}

/** The stored graph. */
export interface UsageGraph {
  nodes: UsageNode[];
}

/** The most nodes kept per application; beyond it, the least recently used node is dropped. */
export const MAX_GRAPH_NODES = 10_000;

/** A graph with no node. */
export function emptyGraph(): UsageGraph {
  return { nodes: [] };
}

/** Counts the tool invocations of `entries` into `graph` (in place), keeping at most {@link MAX_GRAPH_NODES} nodes. */
export function applyToGraph(graph: UsageGraph, entries: ChronicleEntry[]): void {
  const nodes = new Map(graph.nodes.map((node) => [`${node.server}\u0000${node.tool}`, node]));
  for (const entry of entries) {
    for (const invocation of entry.tool_invocations) {
      const key = `${invocation.registry}\u0000${invocation.tool}`;
      const node = nodes.get(key) ?? { tool: invocation.tool, server: invocation.registry, requests: 0, last_used: entry.timestamp };
      node.requests++;
      if (entry.timestamp > node.last_used) node.last_used = entry.timestamp;
      nodes.set(key, node);
    }
  }
  let all = [...nodes.values()];
  if (all.length > MAX_GRAPH_NODES) all = all.sort((a, b) => (a.last_used < b.last_used ? 1 : -1)).slice(0, MAX_GRAPH_NODES);
  graph.nodes = all;
}

/** The tool invocations of `entries` as additions to a count set, one item (`["server","tool"]`) per node. */
export function graphChanges(entries: ChronicleEntry[]): CountChange[] {
  const added = emptyGraph();
  applyToGraph(added, entries);
  return added.nodes.map((node) => ({ item: JSON.stringify([node.server, node.tool]), add: node.requests, seen: node.last_used }));
}

/** A graph from the rows of its count set. */
export function graphFromCounts(rows: CountRow[]): UsageGraph {
  return {
    nodes: rows.map((row) => {
      const [server, tool] = JSON.parse(row.item) as [string, string];
      return { tool, server, requests: row.count, last_used: row.seen };
    }),
  };
}

/** The nodes in answer order: most requests first, then by tool name. */
export function sortedNodes(graph: UsageGraph): UsageNode[] {
  return [...graph.nodes].sort((a, b) => b.requests - a.requests || a.tool.localeCompare(b.tool));
}
