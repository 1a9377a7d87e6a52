// Finishes a flushed batch of pending entries: scrubs every secret from their bounded JSON text, once per set of request credentials.
import { secretScrubber, type SecretScrubber } from '../secrets/secret-scrubber.js';
import { finishEntryText } from './entry-limits.js';
import type { FinishedEntry, PendingEntry } from './pending-entries.js';

/**
 * The entries of `items` ready to append, in order: an entry finished by an earlier flush is kept as is; any other is
 * scrubbed of the stored secrets `known` and of its request's own. One scrubber serves each set of request
 * credentials in the batch (usually one per developer key).
 */
export function finishEntries(items: readonly PendingEntry[], known: readonly string[], maxFieldBytes: number): FinishedEntry[] {
  const scrubbers = new Map<string, SecretScrubber>();
  const scrubberOf = (secrets: readonly string[]): SecretScrubber => {
    const id = secrets.join('\u0000');
    let scrubber = scrubbers.get(id);
    if (!scrubber) scrubbers.set(id, (scrubber = secretScrubber([...known, ...secrets])));
    return scrubber;
  };
  return items.map(
    (item): FinishedEntry =>
      item.finished ?? {
        text: finishEntryText(item.json, item.sizes, maxFieldBytes, scrubberOf(item.secrets)),
        timestamp: item.timestamp,
        toolCalls: item.toolCalls,
      },
  );
}
