// Scores dlp_cloud on pii.jsonl (span-level, per info type) and its credential rules on the secretlint rows of tool-output.jsonl.
import dlpCloud, { type PiiFinding } from '../../plugins/guardrails/dlp-cloud/index.js';
import { GuardrailEngine } from '../../src/index.js';
import { prf, readJsonl, sumCounts, type Counts } from './eval-data.js';
import type { EvalModule, EvalRow } from './eval-types.js';

interface Span {
  start: number;
  end: number;
  type: string;
}

/** Our DLP info types, named as the dataset (Presidio) names them. Unlisted types have no counterpart there. */
const TO_DATASET_TYPE: Record<string, string> = {
  EMAIL_ADDRESS: 'EMAIL_ADDRESS',
  PHONE_NUMBER: 'PHONE_NUMBER',
  CREDIT_CARD_NUMBER: 'CREDIT_CARD',
  IBAN_CODE: 'IBAN_CODE',
  US_SOCIAL_SECURITY_NUMBER: 'US_SSN',
  IP_ADDRESS: 'IP_ADDRESS',
  PERSON_NAME: 'PERSON',
  STREET_ADDRESS: 'LOCATION',
  US_DRIVERS_LICENSE_NUMBER: 'US_DRIVER_LICENSE',
  DATE_OF_BIRTH: 'DATE_TIME',
};

/** Structured types, scored together (micro-averaged) against the target. */
const STRUCTURED = ['EMAIL_ADDRESS', 'PHONE_NUMBER', 'CREDIT_CARD', 'IBAN_CODE', 'US_SSN', 'IP_ADDRESS'];
/** Best-effort types, reported on their own without a target. */
const BEST_EFFORT: Record<string, string> = {
  PERSON: 'cue-based (Name:, my name is, Mr., Dear …); no name lists',
  LOCATION: 'street addresses only; dataset LOCATION also holds cities and countries',
  US_DRIVER_LICENSE: 'only after a licence phrase',
  DATE_TIME: 'we detect dates of birth only; dataset DATE_TIME is every date',
};
/** Dataset types we do not detect: left out of scoring. */
const EXCLUDED = ['TITLE', 'AGE', 'ZIP_CODE', 'ORGANIZATION', 'NRP', 'URL'];
const TARGET_F1 = 0.85;

/**
 * Matching rule: a prediction matches a gold span of the same (mapped) type when the two overlap by at least one
 * code point; each gold span and each prediction is matched at most once, greedily in text order. The structured
 * micro row also gives the exact-boundary F1 (same start and end) in its note.
 */
function matchSpans(gold: Span[], predicted: Span[], exact: boolean): Map<string, Counts> {
  const counts = new Map<string, Counts>();
  const get = (type: string): Counts => {
    let c = counts.get(type);
    if (!c) counts.set(type, (c = { truePositives: 0, falsePositives: 0, falseNegatives: 0 }));
    return c;
  };
  const used = new Set<Span>();
  for (const p of predicted) {
    const hit = gold.find(
      (g) => !used.has(g) && g.type === p.type && (exact ? g.start === p.start && g.end === p.end : g.start < p.end && p.start < g.end),
    );
    if (hit) {
      used.add(hit);
      get(p.type).truePositives++;
    } else {
      get(p.type).falsePositives++;
    }
  }
  for (const g of gold) if (!used.has(g)) get(g.type).falseNegatives++;
  return counts;
}

function toSpans(findings: PiiFinding[]): { mapped: Span[]; unmapped: number } {
  const mapped: Span[] = [];
  let unmapped = 0;
  for (const f of findings) {
    const type = TO_DATASET_TYPE[f.info_type];
    if (type) mapped.push({ start: f.location.codepoint_range.start, end: f.location.codepoint_range.end, type });
    else unmapped++;
  }
  return { mapped, unmapped };
}

function add(into: Map<string, Counts>, from: Map<string, Counts>): void {
  for (const [type, c] of from) into.set(type, sumCounts([into.get(type) ?? { truePositives: 0, falsePositives: 0, falseNegatives: 0 }, c]));
}

function row(label: string, counts: Counts, extra: Partial<EvalRow> = {}): EvalRow {
  const { precision, recall, f1 } = prf(counts);
  return { processor: 'dlp_cloud', label, precision, recall, f1, support: counts.truePositives + counts.falseNegatives, ...extra };
}

async function scorePii(engine: GuardrailEngine, dataDir: string): Promise<EvalRow[]> {
  const rows = await readJsonl<{ spans: Span[] }>(dataDir, 'pii.jsonl');
  const overlap = new Map<string, Counts>();
  const exact = new Map<string, Counts>();
  let unmapped = 0;
  for (const r of rows) {
    const outcome = await engine.evaluate('dlp_cloud', r.text, { options: { strategy: 'inspect' } });
    const findings = (outcome.results as { findings: PiiFinding[] }).findings;
    const spans = toSpans(findings);
    unmapped += spans.unmapped;
    const gold = r.labels.spans.filter((s) => !EXCLUDED.includes(s.type));
    add(overlap, matchSpans(gold, spans.mapped, false));
    add(exact, matchSpans(gold, spans.mapped, true));
  }
  const zero = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  const structured = sumCounts(STRUCTURED.map((t) => overlap.get(t) ?? zero));
  const structuredExact = prf(sumCounts(STRUCTURED.map((t) => exact.get(t) ?? zero)));
  const out: EvalRow[] = STRUCTURED.map((type) => row(type, overlap.get(type) ?? zero));
  out.push(
    row('structured (micro)', structured, {
      target: `F1 >= ${TARGET_F1}`,
      met: prf(structured).f1 >= TARGET_F1,
      note: `span overlap; exact-boundary F1 ${structuredExact.f1.toFixed(3)}`,
    }),
  );
  for (const [type, note] of Object.entries(BEST_EFFORT)) out.push(row(type, overlap.get(type) ?? zero, { note: `best effort: ${note}` }));
  out.push({
    processor: 'dlp_cloud',
    label: 'excluded',
    support: 0,
    note: `not detected, left out: ${EXCLUDED.join(', ')}; ${unmapped} findings of types without a dataset label (credentials, MAC, passport) not scored`,
  });
  return out;
}

/** Secret rows: a positive is caught when any credential finding is reported; negatives give the false-positive rate. */
async function scoreSecrets(engine: GuardrailEngine, dataDir: string): Promise<EvalRow> {
  const rows = (await readJsonl<{ attack: boolean; family: string }>(dataDir, 'tool-output.jsonl')).filter((r) => r.id.startsWith('secretlint'));
  const credentialTypes = ['AUTH_TOKEN', 'AWS_CREDENTIALS', 'GCP_API_KEY', 'JSON_WEB_TOKEN', 'ENCRYPTION_KEY', 'PASSWORD', 'BASIC_AUTH_HEADER'];
  const counts: Counts = { truePositives: 0, falsePositives: 0, falseNegatives: 0 };
  let negatives = 0;
  for (const r of rows) {
    const outcome = await engine.evaluate('dlp_cloud', r.text, { options: { strategy: 'inspect', info_types: credentialTypes } });
    const caught = (outcome.triggered ?? []).length > 0;
    if (r.labels.attack) counts[caught ? 'truePositives' : 'falseNegatives']++;
    else {
      negatives++;
      if (caught) counts.falsePositives++;
    }
  }
  return row('credentials (secretlint rows)', counts, {
    falsePositiveRate: negatives === 0 ? 0 : counts.falsePositives / negatives,
    note: 'tool-output.jsonl secretlint rows, row-level; informational, no target',
  });
}

/** The PII eval module. */
const piiEval: EvalModule = {
  name: 'pii',
  async run(dataDir) {
    const engine = new GuardrailEngine();
    await engine.add(dlpCloud);
    return [...(await scorePii(engine, dataDir)), await scoreSecrets(engine, dataDir)];
  },
};

export default piiEval;
