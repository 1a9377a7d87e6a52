// Tried and not kept (MODEL.md, eighth session): a document-level "message between people" feature for toolinjectiondetection, read beside each sentence as reference-page.ts is.
// To measure it again: in plugins/guardrails/tool-injection-detection/segments.ts, append correspondenceFeature(normalised, bits) to the buckets documentBuckets gives, then run scripts/train/tool-injection-experiment.ts --seeds 1.
import { fnv } from '../../../plugins/guardrails/prompt-injection-detection/hashed-features.js';

/** A greeting line on its own ("Hi Ana,", "Dear customer,", "Hello everyone!"), not one addressed to a machine. */
const GREETING = /^(?:hi|hello|hey|dear|good (?:morning|afternoon|evening)|greetings)\b[^.?\n]{0,36}[,!:]?$/;
const MACHINE = /\b(?:ai|assistant|model|agent|bot|chatbot|gpt|llm|system)\b/;
/** A sign-off line on its own ("Best regards,", "Thanks!", "Cheers"). */
const SIGN_OFF = /^(?:best(?: regards| wishes)?|kind regards|warm(?:est)? (?:regards|wishes)|regards|many thanks|thanks(?: again| so much| a lot)?|thank you|cheers|sincerely(?: yours)?|yours(?: truly| sincerely)?|all the best|talk soon|see you(?: soon)?)[,.!]?$/;
/** Message header fields at a line start, in mail or messaging-API records (`From:`, `subject:`, `- sender: …`, `"to": …`). */
const HEADER = /^(?:- )?"?(from|to|cc|bcc|subject|sender|recipients?|sent|reply-to)"?\s*:/;

/** The feature's own buckets, each added twice (as in reference-page.ts: it learns as fast as a word token). */
const BUCKETS = 48;
const REPEAT = 2;
const bucketsByBits = new Map<number, readonly number[]>();

function correspondenceBuckets(bits: number): readonly number[] {
  let buckets = bucketsByBits.get(bits);
  if (!buckets) {
    const out: number[] = [];
    for (let k = 0; k < BUCKETS; k += 1) {
      const bucket = fnv(`document:correspondence:${k}`, 0) & ((1 << bits) - 1);
      for (let r = 0; r < REPEAT; r += 1) out.push(bucket);
    }
    buckets = out;
    bucketsByBits.set(bits, buckets);
  }
  return buckets;
}

/**
 * True when a normalised text reads as a message from one person to another: a greeting line or a sign-off line of
 * its own, or two different message header fields. Its requests ("please send me the report") are then meant for a
 * human recipient; the model learns how much that lowers a sentence (planted instructions in e-mails are positives in
 * training, so it does not gate).
 */
export function isCorrespondence(normalised: string): boolean {
  const headers = new Set<string>();
  for (const raw of normalised.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.length <= 48 && ((GREETING.test(line) && !MACHINE.test(line)) || SIGN_OFF.test(line))) return true;
    const header = HEADER.exec(line);
    if (header) {
      headers.add(header[1] === 'recipient' ? 'recipients' : (header[1] as string));
      if (headers.size >= 2) return true;
    }
  }
  return false;
}

/** The correspondence feature's buckets for a normalised text (none when it is not a message). */
export function correspondenceFeature(normalised: string, bits: number): readonly number[] {
  return isCorrespondence(normalised) ? correspondenceBuckets(bits) : [];
}
