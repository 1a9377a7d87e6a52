// Exploration: trustsafety trained with copies of rows whose insult words are swapped for others of the same lexicon class.
// Run: npx tsx scripts/eval/variants/trust-safety-swap.ts
import { baseTrainer, report, type Trainer } from './trust-safety-harness.js';
import { seededRandom } from '../../train/linear-trainer.js';
import { CLASS_INSULT, CLASS_WEAK_INSULT, expandFragment, wordClasses } from '../../../plugins/guardrails/trust-safety/word-classes.js';
import { INSULT, WEAK_INSULT } from '../../../plugins/guardrails/trust-safety/lexicon.js';
import type { TrustSafetyRow } from '../../train/trust-safety-model.js';

const pools = { [CLASS_INSULT]: expandFragment(INSULT), [CLASS_WEAK_INSULT]: expandFragment(WEAK_INSULT) } as Record<number, string[]>;
function swapTrainer(copies: number, weightNote = ''): Trainer {
  return (rows) => {
    const random = seededRandom(11);
    const extra: TrustSafetyRow[] = [];
    for (const row of rows) {
      if (!/[a-z]/i.test(row.text)) continue;
      for (let c = 0; c < copies; c += 1) {
        let changed = false;
        const text = row.text.replace(/[A-Za-z']+/g, (w) => {
          const cls = wordClasses(w.toLowerCase()) & (CLASS_INSULT | CLASS_WEAK_INSULT);
          if (!cls) return w;
          const pool = pools[cls & CLASS_INSULT ? CLASS_INSULT : CLASS_WEAK_INSULT]!;
          changed = true;
          return pool[Math.floor(random() * pool.length)]!;
        });
        if (changed) extra.push({ ...row, id: `${row.id}-swap${c}`, text });
      }
    }
    return baseTrainer([...rows, ...extra]);
  };
}
report('swap x1', swapTrainer(1));
report('swap x2', swapTrainer(2));
