// lang_detector: result shape, detection on a few languages, the allow-list, the threshold and option validation.
import assert from 'node:assert/strict';
import langDetector, { type LangDetectorResults } from '../../plugins/guardrails/lang-detector/index.js';
import { GuardrailEngine, isGatewayError, type GuardrailOutcome } from '../../src/index.js';

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
    ['ja', '昨日の夜、近所の人たちが新しい図書館の計画について話し合いました。'],
    ['ar', 'ناقش سكان الحي مساء أمس خطة بناء مدرسة جديدة في المنطقة.'],
  ];

  for (const [lang, text] of samples) {
    it(`detects ${lang} and answers exactly { lang, prob }`, async () => {
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

  it('treats id and ms as one language in the allow-list (eld has no Indonesian model)', async () => {
    const indonesian = 'Pemerintah kota akan membangun perpustakaan baru di dekat stasiun kereta tahun depan.';
    const outcome = await run(indonesian, { allowed_languages: ['id'] });
    assert.ok(['id', 'ms'].includes(outcome.results.lang));
    assert.equal(outcome.flagged, false);
  });

  it('rejects a malformed allowed_languages with a coded 400', async () => {
    for (const options of [{ allowed_languages: 'en' }, { allowed_languages: ['english'] }, { allowed_languages: [] }]) {
      await assert.rejects(run('hello', options), (error: unknown) => isGatewayError(error) && error.code === 'invalid_value');
    }
  });
});
