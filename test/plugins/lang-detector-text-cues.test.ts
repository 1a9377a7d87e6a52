// lang_detector's text-shape cues: names-only texts, capitalised words, a Latin i in Cyrillic, the Ukrainian word forms, and their effect on the shipped model.
import assert from 'node:assert/strict';
import { normaliseCasedForLanguage, normaliseForLanguage } from '../../plugins/guardrails/lang-detector/language-features.js';
import { loadLanguageModel } from '../../plugins/guardrails/lang-detector/language-model.js';
import { foreignLetters, letterOwners } from '../../plugins/guardrails/lang-detector/orthography.js';
import { capitalisedWords, cyrillicLatinI, namesOnly } from '../../plugins/guardrails/lang-detector/text-cues.js';

const MODEL_FOLDER = new URL('../../plugins/guardrails/lang-detector/', import.meta.url);
const cased = (text: string): string => normaliseCasedForLanguage(text);

describe('lang_detector text cues', () => {
  it('lower-casing the cased normal form gives the training normal form', () => {
    for (const text of ['Ele mora em Boston.', 'İstanbul’da ÇOK güzel!', "Пам'ять — ЛЮДЕЙ", 'Ⅻ Straße 12', '']) {
      assert.equal(cased(text).toLowerCase(), normaliseForLanguage(text), text);
    }
  });

  it('namesOnly: 1 to 4 words, each an ASCII capital then ASCII letters', () => {
    for (const text of ['Michael', 'R.E. Glenn', 'Prime Ribs', '04/26/2001 07:17 AM']) assert.equal(namesOnly(cased(text)), true, text);
    for (const text of ['sara', 'Assan Abdullah Khan, 22, London E17', 'Anna está', 'José Silva', 'surprise date', '', '12']) assert.equal(namesOnly(cased(text)), false, text);
  });

  it('capitalisedWords flags capitalised words after the first, and nothing when none is', () => {
    const flags = (text: string): boolean[] | undefined => capitalisedWords(cased(text), cased(text).toLowerCase());
    assert.deepEqual(flags('Ele mora em Boston'), [false, false, false, true]);
    assert.deepEqual(flags('Ti Sergio'), [false, true]);
    assert.equal(flags('Ele mora aqui'), undefined);
    assert.equal(flags('ele mora aqui'), undefined);
  });

  it('cyrillicLatinI turns a Latin i touching a Cyrillic letter into і, and leaves Latin words alone', () => {
    assert.equal(cyrillicLatinI('Солдат дав менi води. Iван'), 'Солдат дав мені води. Іван');
    assert.equal(cyrillicLatinI('iPhone i Samsung'), 'iPhone i Samsung');
  });

  it('counts the Ukrainian word forms -ськ- and a final -ити as one letter Russian lacks', () => {
    const cyrillic = ['ru', 'uk'];
    const owners = letterOwners(cyrillic);
    assert.deepEqual(foreignLetters('президента зеленського', 'Президента Зеленського', cyrillic, owners), [1, 0]);
    assert.deepEqual(foreignLetters('треба зробити', 'треба зробити', cyrillic, owners), [1, 0]);
    assert.deepEqual(foreignLetters('нитка', 'нитка', cyrillic, owners), [0, 0]);
    assert.deepEqual(foreignLetters('президента зеленского', 'Президента Зеленского', cyrillic, owners), [0, 0]);
  });

  it('the shipped model reads names-only texts as English and weighs names less', async () => {
    const model = await loadLanguageModel(MODEL_FOLDER);
    for (const [lang, text] of [['en', 'Sheridan Titman'], ['en', '06/12/2000 10:20 AM'], ['pt', 'Ele mora em Boston'], ['uk', 'Президента Зеленського'], ['uk', 'Дав менi води']]) {
      assert.equal(model.detect(text as string).lang, lang, text);
    }
  });
});
