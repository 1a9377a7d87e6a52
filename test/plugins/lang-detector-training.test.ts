// lang_detector training inputs and scores: the hand-written words and sentences as rows, the orthography cue, and every candidate's probability.
import assert from 'node:assert/strict';
import { loadLanguageModel } from '../../plugins/guardrails/lang-detector/language-model.js';
import { SCRIPT_LANGUAGES } from '../../scripts/train/language-model.js';
import { absenceCosts, foreignLetters, letterOwners } from '../../plugins/guardrails/lang-detector/orthography.js';
import { ownLanguageRows, ownPhraseRows } from '../../scripts/train/own-language-words.js';

const MODEL_FOLDER = new URL('../../plugins/guardrails/lang-detector/', import.meta.url);

describe('lang_detector training data and scores', () => {
  it('turns the word list into one row per distinct word and language, comments skipped, blocks of one language merged', () => {
    const rows = ownLanguageRows('# a comment\n## cs\njsem že jsem\n## pl\nże jestem\n# second part\n## cs\nže byl\n');
    assert.deepEqual(
      rows.map((row) => [row.id, row.text, row.labels.lang]),
      [
        ['own_cs-0', 'jsem', 'cs'],
        ['own_cs-1', 'že', 'cs'],
        ['own_pl-0', 'że', 'pl'],
        ['own_pl-1', 'jestem', 'pl'],
        ['own_cs-2', 'byl', 'cs'],
      ],
    );
    assert.ok(rows.every((row) => row.source.startsWith('hand-written:')));
  });

  it('turns the sentence list into one row per line of each block, comments and blank lines skipped', () => {
    const rows = ownPhraseRows('# comment\n## pt\nNão sei o que dizer.\n\n## es\nNo sé qué decir.\n## pt\nTalvez amanhã.\n');
    assert.deepEqual(
      rows.map((row) => [row.id, row.text, row.labels.lang]),
      [
        ['own_phrase_pt-0', 'Não sei o que dizer.', 'pt'],
        ['own_phrase_es-0', 'No sé qué decir.', 'es'],
        ['own_phrase_pt-1', 'Talvez amanhã.', 'pt'],
      ],
    );
    const shipped = ownPhraseRows();
    for (const lang of Object.values(SCRIPT_LANGUAGES).flat()) assert.ok(shipped.some((row) => row.labels.lang === lang), `no hand-written sentences for ${lang}`);
  });

  it('counts the distinct letters each language lacks (capped at 3), and apostrophes inside Cyrillic words against Russian', () => {
    const romance = ['es', 'pt', 'it'];
    assert.deepEqual(foreignLetters('são opções', 'são opções', romance, letterOwners(romance)), [3, 0, 3]);
    assert.deepEqual(foreignLetters('niño año', 'niño año', romance, letterOwners(romance)), [0, 1, 1]);
    assert.deepEqual(foreignLetters('plain ascii', 'plain ascii', romance, letterOwners(romance)), [0, 0, 0]);
    const cyrillic = ['ru', 'uk'];
    assert.deepEqual(foreignLetters('пам ятка', "пам'ятка", cyrillic, letterOwners(cyrillic)), [1, 0]);
    assert.deepEqual(foreignLetters('її їжа є ґ і', 'її їжа є ґ і', cyrillic, letterOwners(cyrillic)), [3, 0]);
    assert.deepEqual(foreignLetters('объём', 'объём', cyrillic, letterOwners(cyrillic)), [0, 2]);
  });

  it('costs Ukrainian and Russian the absence of their own letters, in proportion to length and capped at 1', () => {
    const cyrillic = ['ru', 'uk'];
    const owners = letterOwners(cyrillic);
    const near = (actual: number[], expected: number[]): void => actual.forEach((value, k) => assert.ok(Math.abs(value - (expected[k] as number)) < 1e-9, `${actual}`));
    near(absenceCosts('это было', 7, cyrillic, owners), [0, 0.42]);
    near(absenceCosts('це було', 6, cyrillic, owners), [0.12, 0.36]);
    near(absenceCosts('він був', 6, cyrillic, owners), [0.12, 0]);
    near(absenceCosts('мы были', 6, cyrillic, owners), [0, 0.36]);
    near(absenceCosts('то дело очень давнее и никто не помнит', 100, cyrillic, owners), [1, 1]);
    assert.deepEqual(absenceCosts('não sei', 6, ['es', 'pt'], letterOwners(['es', 'pt'])), [0, 0]);
  });

  it('the shipped model reads the letters only one of two close languages has', async () => {
    const model = await loadLanguageModel(MODEL_FOLDER);
    for (const [lang, text] of [['pt', 'são duas'], ['es', 'año pasado'], ['uk', "пам'ять людей"], ['uk', 'їхні діти'], ['ru', 'объём работы']]) {
      assert.equal(model.detect(text as string).lang, lang, text);
    }
  });

  it('the shipped word list covers every language the model separates, with unique ids', () => {
    const rows = ownLanguageRows();
    const languages = new Set(rows.map((row) => row.labels.lang));
    for (const lang of Object.values(SCRIPT_LANGUAGES).flat()) assert.ok(languages.has(lang), `no hand-written words for ${lang}`);
    assert.equal(new Set(rows.map((row) => row.id)).size, rows.length);
  });

  it('scores gives every candidate of the script a probability; they sum to 1 and the largest is what detect answers', async () => {
    const model = await loadLanguageModel(MODEL_FOLDER);
    for (const text of ['nie wiem, co powiedzieć', 'não sei o que dizer', 'Я не знаю, что сказать']) {
      const scores = model.scores(text);
      assert.equal(scores.fixed, undefined);
      const sum = [...scores.probs.values()].reduce((a, b) => a + b, 0);
      assert.ok(Math.abs(sum - 1) < 1e-9, `sum ${sum}`);
      const top = [...scores.probs].sort((a, b) => b[1] - a[1])[0]?.[0];
      assert.equal(top, model.detect(text).lang);
    }
    assert.equal(model.scores('Hallo').probs.size, SCRIPT_LANGUAGES.latin?.length);
    assert.deepEqual(model.scores('감사합니다').fixed, { lang: 'ko', prob: 1 });
    assert.equal(model.scores('12345').fixed?.lang, 'und');
  });
});
