// Child process for the kill -9 test: writes ever larger checksummed values and log records until it is killed.
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { fileStorage } from '../../src/storage/file-storage.js';

/** The keys the child writes. */
export const WRITER_KEYS = ['crash/a', 'crash/b', 'crash/c/deep', 'crash/d'];
/** The log the child appends to. */
export const WRITER_LOG = 'crash/log';

/** The checksum stored beside each payload. */
export function payloadSum(payload: string): string {
  return createHash('sha256').update(payload).digest('hex');
}

/** A payload of `size` characters that depends on its inputs. */
function payload(seed: string, size: number): string {
  const unit = `${seed}|`;
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

async function run(dir: string, generation: number): Promise<void> {
  const storage = fileStorage({ dir });
  await storage.init();
  process.stdout.write('started\n');
  for (let round = 1; ; round++) {
    const size = 2_000 + ((round * 37_813) % 600_000);
    await Promise.all([
      ...WRITER_KEYS.map(async (key) => {
        const text = payload(`${key}/${generation}/${round}`, size);
        await storage.set(key, { key, generation, round, payload: text, sum: payloadSum(text) });
        process.stdout.write(`ack ${key} ${generation} ${round}\n`);
      }),
      (async () => {
        const records = [0, 1, 2].map((i) => {
          const text = payload(`log/${generation}/${round}/${i}`, size / 8);
          return { generation, round, i, payload: text, sum: payloadSum(text) };
        });
        await storage.append(WRITER_LOG, records);
        process.stdout.write(`ack ${WRITER_LOG} ${generation} ${round}\n`);
      })(),
    ]);
  }
}

// Runs only as the main script (`node --import tsx storage-writer-child.ts <dir> <generation>`), not when imported.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  run(process.argv[2] ?? '', Number(process.argv[3] ?? 1)).catch((error: unknown) => {
    process.stderr.write(`${String(error instanceof Error ? error.stack : error)}\n`);
    process.exit(1);
  });
}
