// "Ignore the previous instructions" in languages the first multilingual rules lack (Vietnamese, Indonesian/Malay, Tagalog, Arabic, Persian, Hindi, Bengali, Thai, Swedish), written from general knowledge.
import type { InjectionRule } from './rules.js';

/** Compiled without flags, as the other rules are (the views are already lower case), and NFKC-normalised as the views are (Thai "ำ" becomes two characters). */
const re = (source: string): RegExp => new RegExp(source.normalize('NFKC'));

/**
 * Override phrases in more languages: an "ignore/forget" verb near "previous/all" and "instructions/rules". Each
 * counts as an override (weight 0.9). Latin-script rules read the plain and folded views (so spellings without
 * accents match); the others read the plain view.
 */
export const MORE_LANGUAGE_RULES: readonly InjectionRule[] = [
  { id: 'override.vi', family: 'override', weight: 0.9, pattern: re(String.raw`(?:bỏ qua|bo qua|quên|phớt lờ|phot lo|lờ đi|không để ý đến)\s+(?:\S+\s+){0,3}?(?:hướng dẫn|huong dan|chỉ dẫn|chi dan|chỉ thị|chi thi|quy tắc|quy tac|mệnh lệnh|menh lenh)\s+(?:\S+\s+){0,1}?(?:trước|truoc|ở trên|o tren|phía trên|phia tren)`), gate: { text: ['bỏ qua', 'bo qua', 'quên', 'quen', 'phớt', 'phot', 'lờ', 'không để ý'] } },
  { id: 'override.id', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:abaikan|lupakan|acuhkan|hiraukan|jangan hiraukan|jangan ikuti)\s+(?:\S+\s+){0,3}?(?:instruksi|perintah|petunjuk|arahan|aturan|peraturan)\s+(?:\S+\s+){0,1}?(?:sebelumnya|terdahulu|di atas|sebelum ini|tadi)`), gate: { words: ['abaikan', 'lupakan', 'acuhkan', 'hiraukan', 'jangan'] } },
  { id: 'override.tl', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:kalimutan|huwag pansinin|wag pansinin|balewalain|huwag sundin)\s+(?:\S+\s+){0,3}?(?:nauna(?:ng)?|dating|naunang|lahat ng)\s+(?:\S+\s+){0,2}?(?:tagubilin|instruksyon|instruksiyon|utos|panuto|patakaran)`), gate: { words: ['kalimutan', 'pansinin', 'balewalain', 'sundin'] } },
  { id: 'override.ar', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:تجاهل|تجاهلي|انس|انسَ|انسى|تغاضى عن|لا تتبع|تخطى)\s+(?:\S+\s+){0,2}?(?:التعليمات|الإرشادات|الارشادات|الأوامر|الاوامر|القواعد|التوجيهات)`), gate: { text: ['تجاهل', 'انس', 'تغاضى', 'لا تتبع', 'تخطى'] } },
  { id: 'override.fa', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:دستورالعمل|دستورات|قوانین|قواعد)\S*\s+(?:\S+\s+){0,2}?(?:را\s+)?(?:نادیده بگیر|فراموش کن)`), gate: { text: ['نادیده', 'فراموش'] } },
  { id: 'override.hi', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:पिछले|पिछली|पहले के|पहले दिए गए|ऊपर के|ऊपर दिए गए|सभी|सारे)\s+(?:\S+\s+){0,2}?(?:निर्देशों|निर्देश|आदेशों|आदेश|नियमों|नियम)\s+(?:\S+\s+){0,2}?(?:अनदेखा|नजरअंदाज|नज़रअंदाज़|भूल)`), gate: { text: ['अनदेखा', 'नजरअंदाज', 'नज़रअंदाज़', 'भूल'] } },
  { id: 'override.bn', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:আগের|পূর্ববর্তী|পূর্বের|সমস্ত|সব|উপরের)\s+(?:\S+\s+){0,2}?(?:নির্দেশ|নিয়ম|আদেশ)\S*\s+(?:\S+\s+){0,2}?(?:উপেক্ষা|ভুলে)`), gate: { text: ['উপেক্ষা', 'ভুলে'] } },
  { id: 'override.th', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:เพิกเฉย|ละเว้น|ไม่ต้องสนใจ|ลืม|ละเลย)\S{0,12}?(?:คำสั่ง|คำแนะนำ|กฎ)\S{0,12}?(?:ก่อนหน้า|ทั้งหมด|เดิม|ข้างต้น)`), gate: { text: ['เพิกเฉย', 'ละเว้น', 'ไม่ต้องสนใจ', 'ลืม', 'ละเลย'] } },
  { id: 'override.sv', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:ignorera|glöm|glom|strunta i)\s+(?:\S+\s+){0,2}?(?:tidigare|föregående|foregaende|ovanstående|ovanstaende|alla)\s+(?:instruktioner(?:na)?|anvisningar(?:na)?|regler(?:na)?)`), gate: { words: ['ignorera', 'glöm', 'glom', 'strunta'] } },
];
