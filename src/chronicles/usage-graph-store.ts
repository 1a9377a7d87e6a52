// Stores each application's usage graph beside its Chronicles log: atomic count additions where the adapter has them, else a stored graph.
import type { WriteGuard } from '../storage/storage-adapter.js';
import type { Storage } from '../storage/storage-facade.js';
import type { ChronicleEntry } from './chronicle-entry.js';
import { chroniclesLog, usageGraphKey } from './chronicles-keys.js';
import { newestRecords, READ_BATCH } from './log-pages.js';
import type { FinishedEntry } from './pending-entries.js';
import { applyToGraph, emptyGraph, graphChanges, graphFromCounts, MAX_GRAPH_NODES, type UsageGraph } from './usage-graph.js';

/**
 * The usage graphs of the recorder. On an adapter that counts atomically, replicas share each graph as a count set
 * (one atomic addition per batch); elsewhere the graph is one stored value, built from the log (the newest
 * `maxEntries` entries) when there is none yet. The recorder runs the writes and {@link load} in its write queue.
 */
export class UsageGraphStore {
  /** Applications whose stored graph is known to exist. */
  private readonly graphs = new Set<string>();

  constructor(
    private readonly storage: Storage,
    private readonly maxEntries: number,
  ) {}

  /** The graph of `application` from its count set (adapters that count atomically only). */
  async counted(application: string): Promise<UsageGraph> {
    return graphFromCounts(await this.storage.readCounts(usageGraphKey(application)));
  }

  /**
   * The stored graph, or one built from the log when there is none yet; `persist` stores that one (on the write
   * path only: a read never writes).
   */
  async load(application: string, persist: boolean): Promise<UsageGraph> {
    const stored = await this.storage.get<UsageGraph>(usageGraphKey(application));
    if (stored) {
      this.graphs.add(application);
      return stored;
    }
    const graph = emptyGraph();
    let read = 0;
    let batch: ChronicleEntry[] = [];
    for await (const record of newestRecords<ChronicleEntry>(this.storage, chroniclesLog(application))) {
      if (read++ >= this.maxEntries) break;
      batch.push(record.value);
      if (batch.length === READ_BATCH) {
        applyToGraph(graph, batch);
        batch = [];
      }
    }
    applyToGraph(graph, batch);
    if (persist) {
      await this.storage.set(usageGraphKey(application), graph);
      this.graphs.add(application);
    }
    return graph;
  }

  /** Adds the tool calls of entries just appended to the application's graph (only while `guard` holds, when given). */
  async update(application: string, entries: FinishedEntry[], guard?: WriteGuard): Promise<void> {
    // The graph counts the stored (scrubbed) entries' tool calls: only entries with calls are parsed back.
    const calls = entries.filter((entry) => entry.toolCalls).map((entry) => JSON.parse(entry.text) as ChronicleEntry);
    if (this.storage.countsAtomically) {
      // Replicas share the graph: one atomic addition per batch, no read-modify-write.
      if (calls.length > 0) await this.storage.addCounts(usageGraphKey(application), graphChanges(calls), MAX_GRAPH_NODES, guard);
      return;
    }
    if (calls.length === 0 && this.graphs.has(application)) return;
    const stored = await this.storage.get<UsageGraph>(usageGraphKey(application));
    if (!stored) {
      await this.load(application, true); // built from the log, which already holds these entries
      return;
    }
    this.graphs.add(application);
    if (calls.length === 0) return;
    applyToGraph(stored, calls);
    await this.storage.set(usageGraphKey(application), stored);
  }

  /** Deletes the stored graph of `application` (its count set or its value). */
  async delete(application: string): Promise<void> {
    if (this.storage.countsAtomically) await this.storage.deleteCounts(usageGraphKey(application));
    else await this.storage.delete(usageGraphKey(application));
  }

  /** Forgets that the graph of `application` exists (once it was deleted). */
  forget(application: string): void {
    this.graphs.delete(application);
  }
}
