// The "self" cue: text that names the reading assistant's own rules, programming or secrets ("your guidelines", "your password"), in English and 20 other languages.
import { foldView, plainView } from './normalise.js';

/** A word list as the models read it (lower case, accents and homoglyphs folded), escaped for a regular expression. */
function folded(words: readonly string[]): string {
  return words.map((word) => foldView(plainView(word)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
}

/**
 * English: "your" with one of the reader's rules, makers or secrets, and "you are no longer / were programmed to".
 * Bare "your instructions" and "your rules" are left out: system prompts say them ("your instructions are to help").
 */
const ENGLISH = /\byour (?:own )?(?:(?:previous|prior|original|initial|earlier|old|current|programmed) (?:instructions|directives|rules|guidelines|programming|prompt)|programming|guidelines|restrictions|filters|safeguards|(?:safety |content |usage )?polic(?:y|ies)|training|creators?|developers?|makers|ethics|ethical \w+|morals|moral \w+|limitations|constraints|system prompt|password|passphrase|passcode|secret(?: key| code| word| phrase)?|api key|private key|credentials)\b|\byou (?:are|were|have been|'re) (?:no longer|not (?:an ai|a language model|bound|restricted|limited)|(?:programmed|trained|instructed|told|designed|coded) (?:to|by|not to))\b/;

/** Possessive "your" before the noun, in Spanish, Portuguese, French, German, Italian, Dutch, Swedish, Polish and Tagalog. */
const YOUR_BEFORE = ['tu', 'tus', 'su', 'sua', 'seu', 'suas', 'seus', 'tua', 'teu', 'tuas', 'teus', 'ton', 'ta', 'tes', 'votre', 'vos', 'dein', 'deine', 'deinen', 'deiner', 'deines', 'ihr', 'ihre', 'la tua', 'le tue', 'il tuo', 'i tuoi', 'la sua', 'je', 'jouw', 'uw', 'ditt', 'din', 'dina', 'twoje', 'twój', 'twoja', 'twoich', 'wasze', 'wasz', 'iyong', 'inyong', 'mong'];
/** The nouns those possessives name: password, secret key, instructions, rules, programming, guidelines, restrictions. */
const NOUNS_AFTER = ['contraseña', 'clave secreta', 'instrucciones', 'reglas', 'programación', 'directrices', 'restricciones', 'senha', 'chave secreta', 'instruções', 'regras', 'programação', 'diretrizes', 'restrições', 'mot de passe', 'clé secrète', 'instructions', 'règles', 'programmation', 'consignes', 'directives', 'passwort', 'kennwort', 'geheimen schlüssel', 'anweisungen', 'regeln', 'programmierung', 'richtlinien', 'einschränkungen', 'password', 'chiave segreta', 'istruzioni', 'regole', 'programmazione', 'linee guida', 'restrizioni', 'wachtwoord', 'geheime sleutel', 'instructies', 'regels', 'programmering', 'richtlijnen', 'lösenord', 'hemliga nyckel', 'instruktioner', 'regler', 'riktlinjer', 'hasło', 'tajny klucz', 'instrukcje', 'zasady', 'reguły', 'programowanie', 'wytyczne', 'mga tagubilin', 'mga patakaran', 'mga panuntunan'];

/**
 * Latin-script languages, folded to the model's text: a possessive and a noun (pairs across languages match too,
 * harmlessly), or a noun with the possessive after it (Indonesian/Malay, Vietnamese) or fused (Turkish). One leading
 * alternation each, so the engine tries few branches per position.
 */
const LATIN = new RegExp(
  `\\b(?:${folded(YOUR_BEFORE)}) (?:${folded(NOUNS_AFTER)})` +
    `|\\b(?:${folded(['kata sandi', 'kata laluan', 'kunci rahasia', 'instruksi', 'aturan', 'arahan', 'pemrograman'])})(?:mu| anda| kamu)\\b` +
    `|\\b(?:${folded(['mật khẩu', 'khóa bí mật', 'mã bí mật', 'hướng dẫn', 'chỉ dẫn', 'quy tắc', 'lập trình'])})(?: \\w+){0,2} ${folded(['của bạn'])}\\b` +
    `|\\b(?:${folded(['şifren', 'şifreniz', 'parolan', 'parolanız', 'gizli anahtarın', 'talimatların', 'talimatlarınız', 'kuralların', 'kurallarınız'])})\\b`,
);

/** Other scripts: Russian and Ukrainian, Hindi, Bengali, Persian, Arabic, Chinese, Japanese, Korean, Thai. */
const OTHER = new RegExp(
  [
    `(?:${folded(['твой', 'твоя', 'твои', 'твою', 'ваш', 'ваша', 'ваши', 'вашу', 'твій', 'твої', 'ваші'])}) (?:${folded(['пароль', 'секретный ключ', 'инструкци', 'правил', 'программ', 'інструкці'])})`,
    `(?:${folded(['आपका', 'आपकी', 'आपके', 'तुम्हारा', 'तुम्हारी', 'तुम्हारे'])}) (?:${folded(['पासवर्ड', 'गुप्त', 'निर्देश', 'नियम', 'प्रोग्रामिंग'])})`,
    `(?:${folded(['আপনার', 'তোমার'])}) (?:${folded(['পাসওয়ার্ড', 'গোপন', 'নির্দেশ', 'নিয়ম', 'প্রোগ্রামিং'])})`,
    `(?:${folded(['رمز عبور شما', 'گذرواژه شما', 'دستورالعمل های شما', 'دستورات شما', 'قوانین شما'])})`,
    `(?:${folded(['كلمة المرور الخاصة بك', 'كلمة السر الخاصة بك', 'كلمة مرورك', 'كلمة سرك', 'مفتاحك السري', 'تعليماتك', 'قواعدك', 'برمجتك'])})`,
    `(?:${folded(['你的', '您的'])})(?:${folded(['密码', '秘密', '密钥', '指令', '指示', '规则', '規則', '编程', '編程'])})`,
    `(?:${folded(['あなたの', '君の', 'お前の'])})(?:${folded(['パスワード', '秘密', '指示', 'ルール', '規則', 'プログラミング'])})`,
    `(?:${folded(['당신의', '너의', '귀하의', '네'])}) ?(?:${folded(['비밀번호', '암호', '비밀', '지시', '지침', '규칙', '프로그래밍'])})`,
    `(?:${folded(['รหัสผ่าน', 'คีย์ลับ', 'กุญแจลับ', 'คำแนะนำ', 'คำสั่ง', 'กฎ'])})\\S{0,12}?${folded(['ของคุณ'])}`,
  ].join('|'),
);

/** A character outside the Latin scripts: without one, {@link OTHER} cannot match. */
const NON_LATIN = /[^\u0000-\u024f]/;

/**
 * The ASCII words of which every match of {@link LATIN} holds at least one (a noun's first or fused word, "cua" of
 * Vietnamese "cua ban"), hashed: a set lookup per word spares the regular expression on most windows.
 */
const LATIN_GATE = new Set(
  [
    ...NOUNS_AFTER.map((noun) => foldView(plainView(noun)).split(' ')[0] as string),
    ...['kata', 'kunci', 'instruksi', 'aturan', 'arahan', 'pemrograman', 'instruksimu', 'aturanmu', 'sandimu', 'arahanmu', 'cua'],
    ...['sifren', 'sifreniz', 'parolan', 'parolaniz', 'gizli', 'talimatlarin', 'talimatlariniz', 'kurallarin', 'kurallariniz'],
  ].map(wordHash),
);
/** Nouns of the gate with a letter outside ASCII after folding (Polish "hasło", "reguły"), found by substring. */
const NON_ASCII_NOUNS = NOUNS_AFTER.map((noun) => foldView(plainView(noun))).filter((noun) => /[^\u0000-\u007f]/.test(noun));

/** A 31-multiplier hash of an ASCII word (collisions only make the gate let a window through). */
function wordHash(word: string): number {
  let h = 0;
  for (let i = 0; i < word.length; i += 1) h = (Math.imul(h, 31) + word.charCodeAt(i)) | 0;
  return h;
}

/** True when a window holds a word of {@link LATIN_GATE} (runs of ASCII lower-case letters) or a non-ASCII noun. */
function passesLatinGate(window: string): boolean {
  let h = 0;
  let inWord = false;
  for (let i = 0; i <= window.length; i += 1) {
    const c = i < window.length ? window.charCodeAt(i) : 0;
    if (c >= 97 && c <= 122) {
      h = inWord ? (Math.imul(h, 31) + c) | 0 : c;
      inWord = true;
    } else if (inWord) {
      if (LATIN_GATE.has(h)) return true;
      inWord = false;
    }
  }
  return NON_ASCII_NOUNS.some((noun) => window.includes(noun));
}

/** True when a normalised window names the reader's own rules, programming or secrets (see the patterns above). */
export function namesReaderSelf(window: string): boolean {
  if (window.includes('you') && ENGLISH.test(window)) return true;
  return (passesLatinGate(window) && LATIN.test(window)) || (NON_LATIN.test(window) && OTHER.test(window));
}
