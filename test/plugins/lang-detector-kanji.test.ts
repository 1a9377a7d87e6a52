// lang_detector: Han-only text with a kanji only Japanese writes reads as Japanese; Chinese, simplified or traditional, stays Chinese.
import assert from 'node:assert/strict';
import { hasJapaneseOnlyKanji, JAPANESE_ONLY_KANJI } from '../../plugins/guardrails/lang-detector/japanese-kanji.js';
import { loadLanguageModel } from '../../plugins/guardrails/lang-detector/language-model.js';

const MODEL_FOLDER = new URL('../../plugins/guardrails/lang-detector/', import.meta.url);

describe('lang_detector Japanese-only kanji', () => {
  it('lists no character twice and none that simplified Chinese writes the same way', () => {
    assert.equal(new Set(JAPANESE_ONLY_KANJI).size, [...JAPANESE_ONLY_KANJI].length);
    for (const shared of '学国会写时们这') assert.ok(!JAPANESE_ONLY_KANJI.includes(shared), shared);
  });

  it('finds a Japanese-only kanji within the read limit', () => {
    assert.equal(hasJapaneseOnlyKanji('東京駅', 4000), true);
    assert.equal(hasJapaneseOnlyKanji('北京火车站', 4000), false);
    assert.equal(hasJapaneseOnlyKanji('北京車站', 4000), false);
    assert.equal(hasJapaneseOnlyKanji('北京。駅', 3), false);
  });

  it('the shipped model reads Han-only Japanese as Japanese and leaves Chinese alone', async () => {
    const model = await loadLanguageModel(MODEL_FOLDER);
    for (const [lang, text] of [['ja', '大阪市営地下鉄'], ['ja', '東京駅前'], ['ja', '天気予報'], ['zh', '北京火车站'], ['zh', '今天天气很好'], ['zh', '臺北車站']]) {
      assert.equal(model.detect(text as string).lang, lang, text);
    }
  });
});
