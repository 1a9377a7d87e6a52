// The "self" cue: text that names the reading assistant's own rules, programming or secrets ("your guidelines", "your password"), in English and 20 other languages.
import { foldView, plainView } from './normalise.js';
import { wordHash } from './word-hash.js';

/** A phrase as the models read it: lower case, accents and homoglyphs folded (see normalise.ts). */
function fold(phrase: string): string {
  return foldView(plainView(phrase));
}

/** Folded phrases, escaped, as one alternation. */
function alternation(phrases: readonly string[]): string {
  return phrases.map((phrase) => fold(phrase).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/**
 * English: "your" with one of the reader's rules, makers or secrets, and "you are no longer / were programmed to".
 * Bare "your instructions" and "your rules" are left out: system prompts say them ("your instructions are to help").
 */
const ENGLISH = /\byour (?:own )?(?:(?:previous|prior|original|initial|earlier|old|current|programmed) (?:instructions|directives|rules|guidelines|programming|prompt)|programming|guidelines|restrictions|filters|safeguards|(?:safety |content |usage )?polic(?:y|ies)|training|creators?|developers?|makers|ethics|ethical \w+|morals|moral \w+|limitations|constraints|system prompt|password|passphrase|passcode|secret(?: key| code| word| phrase)?|api key|private key|credentials)\b|\byou (?:are|were|have been|'re) (?:no longer|not (?:an ai|a language model|bound|restricted|limited)|(?:programmed|trained|instructed|told|designed|coded) (?:to|by|not to))\b/;

/** Possessive "your" before the noun, in Spanish, Portuguese, French, German, Italian, Dutch, Swedish and Polish. */
const YOUR_BEFORE = ['tu', 'tus', 'su', 'sua', 'seu', 'suas', 'seus', 'tua', 'teu', 'tuas', 'teus', 'ton', 'ta', 'tes', 'votre', 'vos', 'dein', 'deine', 'deinen', 'deiner', 'deines', 'ihr', 'ihre', 'la tua', 'le tue', 'il tuo', 'i tuoi', 'la sua', 'je', 'jouw', 'uw', 'ditt', 'din', 'dina', 'twoje', 'twój', 'twoja', 'twoich', 'wasze', 'wasz'];
/** The nouns they name (password, secret key, instructions, rules, programming, guidelines, restrictions), none of them an English word. */
const NOUNS_AFTER = ['contraseña', 'clave secreta', 'instrucciones', 'reglas', 'programación', 'directrices', 'restricciones', 'senha', 'chave secreta', 'instruções', 'regras', 'programação', 'diretrizes', 'restrições', 'mot de passe', 'clé secrète', 'règles', 'programmation', 'consignes', 'passwort', 'kennwort', 'geheimen schlüssel', 'anweisungen', 'regeln', 'programmierung', 'richtlinien', 'einschränkungen', 'chiave segreta', 'istruzioni', 'regole', 'programmazione', 'linee guida', 'restrizioni', 'wachtwoord', 'geheime sleutel', 'instructies', 'regels', 'programmering', 'richtlijnen', 'lösenord', 'hemliga nyckel', 'instruktioner', 'regler', 'riktlinjer', 'hasło', 'tajny klucz', 'instrukcje', 'zasady', 'reguły', 'programowanie', 'wytyczne'];
/** Possessives whose noun is spelt as in English (French "vos instructions", Italian "la tua password", Tagalog "iyong password"). */
const YOUR_ENGLISH_NOUN = ['votre', 'vos', 'ton', 'ta', 'tes', 'tua', 'sua', 'iyong', 'inyong', 'mong'];
/** Nouns written after their possessive or fused with it: Indonesian/Malay, Vietnamese ("của bạn"), Turkish. */
const INDONESIAN = ['kata sandi', 'kata laluan', 'kunci rahasia', 'instruksi', 'aturan', 'arahan', 'pemrograman'];
const VIETNAMESE = ['mật khẩu', 'khóa bí mật', 'mã bí mật', 'hướng dẫn', 'chỉ dẫn', 'quy tắc', 'lập trình'];
const TURKISH = ['şifren', 'şifreniz', 'parolan', 'parolanız', 'gizli anahtarın', 'talimatların', 'talimatlarınız', 'kuralların', 'kurallarınız'];

/**
 * Latin-script languages, folded to the model's text: a possessive and a noun (pairs across languages match too,
 * harmlessly), a possessive and an English-spelt noun, or a noun with the possessive after it or fused. One leading
 * alternation each, so the engine tries few branches per position.
 */
const LATIN = new RegExp(
  `\\b(?:${alternation(YOUR_BEFORE)}) (?:${alternation(NOUNS_AFTER)})` +
    `|\\b(?:${alternation(YOUR_ENGLISH_NOUN)}) (?:instructions|directives|password|mga tagubilin|mga patakaran|mga panuntunan)\\b` +
    `|\\b(?:${alternation(INDONESIAN)})(?:mu| anda| kamu)\\b` +
    `|\\b(?:${alternation(VIETNAMESE)})(?: \\w+){0,2} ${alternation(['của bạn'])}\\b` +
    `|\\b(?:${alternation(TURKISH)})\\b`,
);

/**
 * The words of which every match of {@link LATIN} holds at least one, as the features split words (runs of letters
 * and digits): each noun's first word, the possessives of English-spelt nouns, the Indonesian nouns with "-mu" fused,
 * Vietnamese "cua". A window without any is spared the pattern.
 */
const GATE_WORDS = [
  ...[...NOUNS_AFTER, ...INDONESIAN, ...TURKISH].map((noun) => fold(noun).split(' ')[0] as string),
  ...YOUR_ENGLISH_NOUN,
  ...INDONESIAN.map((noun) => `${fold(noun).split(' ').pop() as string}mu`),
  fold('của'),
];

/** Hashes of {@link GATE_WORDS} (see word-hash.ts), with a table of their low 16 bits that answers most words without a set lookup. */
const GATE = new Set(GATE_WORDS.map(wordHash));
const GATE_LOW = new Uint8Array(1 << 16);
for (const hash of GATE) GATE_LOW[hash & 0xffff] = 1;

/** True when a word's hash (as the features compute it, see word-hash.ts) is one of the gate words of the Latin patterns. */
export function isSelfGateWord(hash: number): boolean {
  return GATE_LOW[hash & 0xffff] === 1 && GATE.has(hash);
}

/** Other scripts: Russian and Ukrainian, Hindi, Bengali, Persian, Arabic, Chinese, Japanese, Korean, Thai. */
const OTHER = new RegExp(
  [
    `(?:${alternation(['твой', 'твоя', 'твои', 'твою', 'ваш', 'ваша', 'ваши', 'вашу', 'твій', 'твої', 'ваші'])}) (?:${alternation(['пароль', 'секретный ключ', 'инструкци', 'правил', 'программ', 'інструкці'])})`,
    `(?:${alternation(['आपका', 'आपकी', 'आपके', 'तुम्हारा', 'तुम्हारी', 'तुम्हारे'])}) (?:${alternation(['पासवर्ड', 'गुप्त', 'निर्देश', 'नियम', 'प्रोग्रामिंग'])})`,
    `(?:${alternation(['আপনার', 'তোমার'])}) (?:${alternation(['পাসওয়ার্ড', 'গোপন', 'নির্দেশ', 'নিয়ম', 'প্রোগ্রামিং'])})`,
    `(?:${alternation(['رمز عبور شما', 'گذرواژه شما', 'دستورالعمل های شما', 'دستورات شما', 'قوانین شما'])})`,
    `(?:${alternation(['كلمة المرور الخاصة بك', 'كلمة السر الخاصة بك', 'كلمة مرورك', 'كلمة سرك', 'مفتاحك السري', 'تعليماتك', 'قواعدك', 'برمجتك'])})`,
    `(?:${alternation(['你的', '您的'])})(?:${alternation(['密码', '秘密', '密钥', '指令', '指示', '规则', '規則', '编程', '編程'])})`,
    `(?:${alternation(['あなたの', '君の', 'お前の'])})(?:${alternation(['パスワード', '秘密', '指示', 'ルール', '規則', 'プログラミング'])})`,
    `(?:${alternation(['당신의', '너의', '귀하의', '네'])}) ?(?:${alternation(['비밀번호', '암호', '비밀', '지시', '지침', '규칙', '프로그래밍'])})`,
    `(?:${alternation(['รหัสผ่าน', 'คีย์ลับ', 'กุญแจลับ', 'คำแนะนำ', 'คำสั่ง', 'กฎ'])})\\S{0,12}?${alternation(['ของคุณ'])}`,
  ].join('|'),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** Whether a window holds a gate word, split as the features split words (for callers that did not hash its words). */
function holdsGateWord(window: string): boolean {
  for (const match of window.matchAll(WORD)) if (isSelfGateWord(wordHash(match[0]))) return true;
  return false;
}

/** What the caller already knows of a window: whether a word of it is a gate word, and whether it is all ASCII. */
export interface SelfGate {
  selfGate: boolean;
  ascii: boolean;
}

/**
 * True when a normalised window names the reader's own rules, programming or secrets (see the patterns above).
 * `known` spares the work when the caller has hashed the window's words (see `wordAndCueBuckets`).
 */
export function namesReaderSelf(window: string, known?: SelfGate): boolean {
  if (window.includes('you') && ENGLISH.test(window)) return true;
  if ((known?.selfGate ?? holdsGateWord(window)) && LATIN.test(window)) return true;
  return !(known?.ascii ?? /^[\x00-\x7f]*$/.test(window)) && OTHER.test(window);
}
