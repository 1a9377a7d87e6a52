// Cross-language concept words for the tool-injection model: "ignore", "previous", "instructions", "user"… in 25 languages, read as one shared token each.
import { featureBuckets, modelText } from '../prompt-injection-detection/hashed-features.js';

/**
 * Word stems of the concepts planted instructions are made of, in the languages the gateway's language detector
 * knows, written from general knowledge. The model learns a concept's weight from the many English examples and
 * applies it to a sentence in any of these languages: without this, a translated attack shares no feature with
 * the English ones.
 */
const STEMS: Record<string, string[]> = {
  ignore: ['ignor', 'disregard', 'negeer', 'zignoruj', 'игнор', 'проигнор', 'ігнор', 'проігнор', 'yok say', 'dikkate alma', 'تجاهل', 'نادیده', 'התעלם', 'अनदेखा', 'नज़रअंदाज़', 'উপেক্ষা', 'abaikan', 'bỏ qua', 'ไม่ต้องสนใจ', 'เพิกเฉย', 'αγνόη', '忽略', '无视', '無視', '무시', 'bortse', 'nevšímej'],
  previous: ['previous', 'prior', 'précédent', 'vorherig', 'bisherig', 'anterior', 'precedent', 'eerdere', 'vorige', 'poprzedni', 'предыдущ', 'прежн', 'попередн', 'önceki', 'السابق', 'قبلی', 'הקודמ', 'पिछल', 'पूर्व', 'আগের', 'পূর্বের', 'sebelumnya', 'trước đó', 'ก่อนหน้า', 'προηγούμεν', '之前', '先前', 'これまで', '以前', '이전', 'tidigare', 'předchozí'],
  instructions: ['instruction', 'anweisung', 'instruccion', 'istruzion', 'instruç', 'instructie', 'instrukcj', 'инструкц', 'інструкц', 'talimat', 'تعليمات', 'دستور', 'הוראות', 'निर्देश', 'নির্দেশ', 'instruksi', 'hướng dẫn', 'คำสั่ง', 'οδηγί', '指令', '指示', '지시', 'instruktion', 'pokyn'],
  output: ['output', 'sortie', 'ausgabe', 'salida', 'uscita', 'saída', 'uitvoer', 'wynik', 'вывод', 'результат', 'çıktı', 'الناتج', 'مخرجات', 'خروجی', 'פלט', 'आउटपुट', 'আউটপুট', 'keluaran', 'đầu ra', 'ผลลัพธ์', 'έξοδ', '输出', '輸出', '出力', '출력', 'utdata', 'výstup'],
  user: ['user', 'utilisateur', 'benutzer', 'nutzer', 'usuario', 'usuário', 'utente', 'gebruiker', 'użytkownik', 'пользовател', 'користувач', 'kullanıcı', 'المستخدم', 'کاربر', 'משתמש', 'उपयोगकर्ता', 'ব্যবহারকারী', 'pengguna', 'người dùng', 'ผู้ใช้', 'χρήστ', '用户', '用戶', 'ユーザー', '사용자', 'användare', 'uživatel'],
  password: ['password', 'mot de passe', 'passwort', 'contraseña', 'senha', 'wachtwoord', 'hasło', 'пароль', 'şifre', 'parola', 'كلمة المرور', 'رمز عبور', 'סיסמ', 'पासवर्ड', 'পাসওয়ার্ড', 'kata sandi', 'mật khẩu', 'รหัสผ่าน', 'κωδικ', '密码', '密碼', 'パスワード', '비밀번호', 'lösenord', 'heslo'],
  assistant: ['assistant', 'asistente', 'assistente', 'asystent', 'ассистент', 'асистент', 'asistan', 'yapay zek', 'مساعد', 'دستیار', 'עוזר', 'सहायक', 'সহকারী', 'asisten', 'trợ lý', 'ผู้ช่วย', 'βοηθ', '助手', '助理', 'アシスタント', '어시스턴트', 'assistent', 'chatbot', 'language model', 'sprachmodell', 'modèle de langage', 'modelo de lenguaje'],
  send: ['send', 'envoie', 'envoyez', 'sende', 'senden', 'envía', 'envíe', 'invia', 'invii', 'envie', 'stuur', 'wyślij', 'отправ', 'надішл', 'gönder', 'أرسل', 'بفرست', 'שלח', 'भेज', 'পাঠা', 'kirim', 'gửi', 'ส่ง', 'στείλ', '发送', '發送', '送信', '보내', 'skicka', 'pošli', 'forward'],
  link: ['link', 'lien', 'enlace', 'collegamento', 'ссылк', 'посилан', 'bağlantı', 'رابط', 'پیوند', 'קישור', 'लिंक', 'লিংক', 'tautan', 'liên kết', 'ลิงก์', 'σύνδεσμ', '链接', '鏈接', 'リンク', '링크', 'länk', 'odkaz'],
  instead: ['instead', 'au lieu', 'stattdessen', 'en lugar', 'en vez', 'invece', 'em vez', 'in plaats', 'zamiast', 'вместо', 'замість', 'yerine', 'بدلا', 'بدلاً', 'به جای', 'במקום', 'के बजाय', 'এর বদলে', 'sebagai gantinya', 'thay vì', 'แทน', 'αντί', '而是', '代わりに', '대신', 'istället', 'místo'],
  say: ['say that', 'state that', 'indiquez que', 'indique que', 'dites que', 'dis que', 'sagen sie', 'sage, dass', 'geben sie an', 'diga que', 'di que', 'indica que', 'dica che', 'di\' che', 'zeg dat', 'powiedz', 'скажи', 'укажи', 'скажіть', 'söyle', 'belirt', 'قل إن', 'بگو', 'אמור', 'कहो', 'कहें', 'बताओ', 'बतायें', 'বলো', 'বলুন', 'katakan', 'nyatakan', 'nói rằng', 'บอกว่า', 'πες ', '说', '說', '言って', '述べ', '말하', 'säg att', 'řekni'],
  hypothetical: ['hypothetical', 'hypothétique', 'hypothetisch', 'hipotétic', 'ipotetic', 'hypothetisch', 'hipotetyczn', 'гипотетич', 'гіпотетич', 'varsayımsal', 'افتراضي', 'فرضی', 'היפותטי', 'काल्पनिक', 'কাল্পনিক', 'hipotetis', 'giả định', 'สมมติ', 'υποθετικ', '假设', '假設', '仮', '가상', 'hypotetisk'],
};

/** Scripts written without spaces between words (or with prefixes glued to words): matched anywhere, not at a word start. */
const UNSPACED = /[\u0590-\u06ff\u0900-\u09ff\u0e00-\u0e7f\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/u;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One pattern per concept, its stems normalised as the model reads text. */
const PATTERNS: Array<[token: string, pattern: RegExp]> = Object.entries(STEMS).map(([concept, stems]) => {
  const normalised = [...new Set(stems.map((stem) => modelText(stem).trim()).filter((stem) => stem !== ''))];
  const spaced = normalised.filter((stem) => !UNSPACED.test(stem)).map(escape);
  const unspaced = normalised.filter((stem) => UNSPACED.test(stem)).map(escape);
  const parts = [...(spaced.length ? [`(?<![\\p{L}\\p{N}])(?:${spaced.join('|')})`] : []), ...(unspaced.length ? [`(?:${unspaced.join('|')})`] : [])];
  return [`xconcept${concept}`, new RegExp(parts.join('|'), 'u')];
});

/** The concept tokens found in a normalised window, in a fixed order, joined by spaces ('' for none). */
export function conceptWords(window: string): string {
  const found: string[] = [];
  for (const [token, pattern] of PATTERNS) if (pattern.test(window)) found.push(token);
  return found.join(' ');
}

/**
 * The tool model's features of one normalised window: the shared hashed n-grams of the window, then those of its
 * concept tokens (so "ignorez les instructions" and "ignore the instructions" share "xconceptignore xconceptinstructions").
 */
export function toolFeatureBuckets(window: string, bits: number, into: number[] = []): number[] {
  featureBuckets(window, bits, into);
  const words = conceptWords(window);
  if (words !== '') featureBuckets(` ${words} `, bits, into);
  return into;
}
