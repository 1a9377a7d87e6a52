// lang_detector: result shape, detection across scripts, the allow-list, the threshold, lazy loading, and the model card's dev figures.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { promisify } from 'node:util';
import langDetector, { type LangDetectorResults } from '../../plugins/guardrails/lang-detector/index.js';
import { loadLanguageModel } from '../../plugins/guardrails/lang-detector/language-model.js';
import { shortTexts } from '../../scripts/eval/short-texts.js';
import { GuardrailEngine, isGatewayError, type GuardrailOutcome } from '../../src/index.js';
import { cpuTime } from '../helpers/cpu-time.js';

const DEV_LANGUAGE = new URL('../../../shared/data/guardrails/language.jsonl', import.meta.url);
const MODEL_CARD = new URL('../../plugins/guardrails/lang-detector/MODEL.md', import.meta.url);

describe('lang_detector guardrail', () => {
  let engine: GuardrailEngine;
  before(async () => {
    engine = new GuardrailEngine();
    await engine.add(langDetector);
  });

  const run = (text: string, options: Record<string, unknown> = {}, threshold?: number): Promise<GuardrailOutcome<LangDetectorResults>> =>
    engine.evaluate('lang_detector', text, { options, threshold }) as Promise<GuardrailOutcome<LangDetectorResults>>;

  const samples: Array<[string, string]> = [
    ['en', 'The committee will publish its final report on the new railway line next spring.'],
    ['es', 'El ayuntamiento publicará mañana el calendario de obras de la nueva biblioteca municipal.'],
    ['fr', "Les habitants du quartier se sont réunis hier soir pour discuter du projet d'aménagement."],
    ['de', 'Die Stadtverwaltung hat gestern den neuen Fahrplan für die Straßenbahn vorgestellt.'],
    ['ru', 'Это было очень интересно, и мы хотели бы узнать больше о вашей работе.'],
    ['uk', 'Міська рада вчора затвердила план будівництва нової школи в нашому районі.'],
    ['ja', '昨日の夜、近所の人たちが新しい図書館の計画について話し合いました。'],
    ['zh', '市政府明年将在火车站附近建一座新的图书馆。'],
    ['hi', 'नगर परिषद ने कल नए पुस्तकालय की योजना को मंज़ूरी दी।'],
    ['ar', 'ناقش سكان الحي مساء أمس خطة بناء مدرسة جديدة في المنطقة.'],
    ['id', 'Pemerintah kota akan membangun perpustakaan baru di dekat stasiun kereta tahun depan.'],
  ];

  for (const [lang, text] of samples) {
    it(`12.4: detects ${lang} and answers exactly { lang, prob }`, async () => {
      const outcome = await run(text);
      assert.deepEqual(Object.keys(outcome.results), ['lang', 'prob']);
      assert.equal(outcome.results.lang, lang);
      assert.ok(outcome.results.prob > 0.5 && outcome.results.prob <= 1, `prob ${outcome.results.prob}`);
      assert.equal(outcome.flagged, false, 'never flags without allowed_languages');
    });
  }

  it('flags a language outside allowed_languages and names it in triggered', async () => {
    const outcome = await run(samples[1]?.[1] ?? '', { allowed_languages: ['en', 'fr'] });
    assert.equal(outcome.results.lang, 'es');
    assert.equal(outcome.flagged, true);
    assert.deepEqual(outcome.triggered, ['es']);
  });

  it('does not flag an allowed language, compared without regard to case', async () => {
    const outcome = await run(samples[0]?.[1] ?? '', { allowed_languages: ['EN'] });
    assert.equal(outcome.flagged, false);
    assert.deepEqual(outcome.triggered, []);
  });

  it('flags only when the probability is above the threshold', async () => {
    const text = samples[3]?.[1] ?? '';
    const { prob } = (await run(text)).results;
    assert.equal((await run(text, { allowed_languages: ['en'] }, prob - 0.01)).flagged, true);
    assert.equal((await run(text, { allowed_languages: ['en'] }, prob)).flagged, false);
  });

  it('answers und with probability 0 for text without letters, and never flags it', async () => {
    for (const text of ['', '12345 678', '!!! ???']) {
      const outcome = await run(text, { allowed_languages: ['en'] });
      assert.deepEqual(outcome.results, { lang: 'und', prob: 0 });
      assert.equal(outcome.flagged, false);
    }
  });

  it('12.4: tells Indonesian from Malay-like text: an id-only allow-list passes Indonesian and flags English', async () => {
    assert.equal((await run(samples[10]?.[1] ?? '', { allowed_languages: ['id'] })).flagged, false);
    assert.equal((await run(samples[0]?.[1] ?? '', { allowed_languages: ['id'] })).flagged, true);
  });

  it('12.4: reads short texts of two or three words', async () => {
    const short: Array<[string, string]> = [['de', 'guten Morgen'], ['fr', 'merci beaucoup'], ['uk', 'ще раз будемо'], ['zh', '我们的国家'], ['ko', '감사합니다'], ['th', 'ขอบคุณมาก']];
    for (const [lang, text] of short) assert.equal((await run(text)).results.lang, lang, text);
  });

  it('rejects a malformed allowed_languages with a coded 400', async () => {
    for (const options of [{ allowed_languages: 'en' }, { allowed_languages: ['english'] }, { allowed_languages: [] }]) {
      await assert.rejects(run('hello', options), (error: unknown) => isGatewayError(error) && error.code === 'invalid_value');
    }
  });

  it('13 (memory): loads its model on first use, not at start; preloadModels loads it at start', async function () {
    this.timeout(60_000);
    const child = async (mode: string): Promise<{ atStart: boolean; afterUse: boolean }> => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/helpers/lang-detector-child.ts', mode], { timeout: 50_000 });
      return JSON.parse(stdout) as { atStart: boolean; afterUse: boolean };
    };
    assert.deepEqual(await child('lazy'), { atStart: false, afterUse: true });
    assert.deepEqual(await child('preload'), { atStart: true, afterUse: true });
  });

  it('12.6: the shipped weights are under 5 MB and load in under 200 ms', async () => {
    const folder = new URL('../../plugins/guardrails/lang-detector/', import.meta.url);
    const bytes = ['language-model.json', 'language-weights.bin'].reduce((sum, file) => sum + statSync(new URL(file, folder)).size, 0);
    assert.ok(bytes < 5 * 1024 * 1024, `${bytes} bytes`);
    // CPU time, not wall time: the bound is on the load's work, which other processes on a loaded machine cannot slow.
    const { ms } = await cpuTime(() => loadLanguageModel(folder));
    assert.ok(ms < 200, `${ms.toFixed(1)} ms of CPU`);
  });

  it('12.6: the shipped model still holds the dev-set figures of its MODEL.md (within 0.005)', async function () {
    if (!existsSync(DEV_LANGUAGE)) this.skip();
    const card = readFileSync(MODEL_CARD, 'utf8');
    const figure = (name: string): number => Number(new RegExp(`${name}: ([0-9.]+)`).exec(card)?.[1]);
    const rows = readFileSync(DEV_LANGUAGE, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { id: string; text: string; labels: { lang: string } });
    const accuracy = async (set: typeof rows): Promise<number> => {
      let correct = 0;
      for (const row of set) if ((await run(row.text)).results.lang === row.labels.lang) correct += 1;
      return correct / set.length;
    };
    assert.ok(Math.abs((await accuracy(rows)) - figure('dev sentences accuracy')) <= 0.005);
    assert.ok(Math.abs((await accuracy(shortTexts(rows))) - figure('dev short accuracy')) <= 0.005);
  });
});
