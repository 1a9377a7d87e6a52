// Kanji only Japanese writes: the shinjitai forms that differ from both simplified and traditional Chinese, and kanji made in Japan, so Han-only Japanese is not read as Chinese.

/**
 * Japanese forms of common characters whose Chinese forms, simplified and traditional, are other code points
 * (気 against 气 and 氣, 駅 against 驿 and 驛, 歩 against 步), and kanji coined in Japan (働, 込, 畑). Written from the
 * character reforms' tables, not from any data set; characters that simplified Chinese writes the same way (学, 国,
 * 会, 写) are left out.
 */
export const JAPANESE_ONLY_KANJI =
  '気円駅売読続図験様発変済県鉄総歳桜黒戦転伝単実楽薬広沢浜辺払関観権歓覚挙営栄労勧価拠検険剣経軽恵渓鶏駆亜' +
  '悪圧囲隠穏仮絵拡殻巻帰亀偽戯犠暁勲薫継撃倹圏顕厳効鉱砕斎剤雑桟賛糸歯児釈収従渋獣縦粛処奨焼渉証乗浄剰畳縄' +
  '壌嬢譲醸粋酔穂瀬斉摂専銭繊荘捜挿巣騒増蔵臓対帯滝択団弾遅鋳庁徴聴鎮稲闘徳弐悩脳覇拝髪抜晩塀歩舗豊毎満黙訳' +
  '揺謡頼覧両猟緑涙塁霊齢暦歴戻働込峠畑畠枠匂栃躾辻凪榊笹麿雫';

/** First code point of the CJK Unified Ideographs block, where every listed kanji lies. */
const HAN_START = 0x4e00;
/** One flag per code point of U+4E00–U+9FFF: 1 for a kanji of {@link JAPANESE_ONLY_KANJI} (an array lookup per character, no string). */
const JAPANESE_ONLY = new Uint8Array(0x9fff - HAN_START + 1);
for (const kanji of JAPANESE_ONLY_KANJI) JAPANESE_ONLY[(kanji.codePointAt(0) as number) - HAN_START] = 1;

/**
 * True when `text` holds a kanji only Japanese writes (see {@link JAPANESE_ONLY_KANJI}); reads at most `limit` characters.
 * @example
 * hasJapaneseOnlyKanji('東京駅の近く', 4000) // → true
 * hasJapaneseOnlyKanji('北京火车站', 4000) // → false
 */
export function hasJapaneseOnlyKanji(text: string, limit: number): boolean {
  const end = Math.min(text.length, limit);
  for (let i = 0; i < end; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= HAN_START && code <= 0x9fff && JAPANESE_ONLY[code - HAN_START] === 1) return true;
  }
  return false;
}
