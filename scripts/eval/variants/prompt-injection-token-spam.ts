// Exploration, not part of eval:guardrails: how often the adversarial-suffix signal fires, per corpus tag, over every training file (no model, no dev set).
// Run: npx tsx scripts/eval/variants/prompt-injection-token-spam.ts [threshold]
import { resolve } from 'node:path';
import { tokenSpamEvidence } from '../../../plugins/guardrails/prompt-injection-detection/token-spam.js';
import { DEFAULT_TRAIN_DIR, readRows } from '../../train/prompt-injection-model.js';

const threshold = Number(process.argv[2] ?? 0.75);
const counts = new Map<string, { rows: number; fired: number; example?: string }>();
for (const file of ['prompt-injection.jsonl', 'tool-output.jsonl', 'trust-safety.jsonl']) {
  for (const row of readRows<{ id: string; text: string; labels: Record<string, unknown> }>(resolve(DEFAULT_TRAIN_DIR, file))) {
    const positive = row.labels.prompt_injection === true || row.labels.attack === true || row.labels.unsafe === true;
    const tag = `${file.replace('.jsonl', '')}:${row.id.replace(/-[^-]*$/, '').replace(/_(environment|inj).*$/, '')}${positive ? ' (positive)' : ''}`;
    const c = counts.get(tag) ?? { rows: 0, fired: 0 };
    c.rows += 1;
    if (tokenSpamEvidence(row.text) > threshold) {
      c.fired += 1;
      c.example ??= row.text.slice(-120);
    }
    counts.set(tag, c);
  }
}
console.log(`| tag | rows | share above ${threshold} | first example (end of text) |\n|---|---:|---:|---|`);
for (const [tag, c] of [...counts].sort()) console.log(`| ${tag} | ${c.rows} | ${(c.fired / c.rows).toFixed(3)} | ${c.example ? JSON.stringify(c.example) : ''} |`);
