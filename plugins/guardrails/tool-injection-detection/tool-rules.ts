// The general rules toolinjectiondetection keeps beside its model: explicit overrides, chat-template tokens, text addressed to the AI reading it.
import { selectRules, TOOL_RULE_IDS } from '../prompt-injection-detection/detector.js';
import type { InjectionRule } from '../prompt-injection-detection/rules.js';

/**
 * Rule ids for tool output: promptinjectiondetection's general and indirect ones, plus those that hold in any data
 * (instructions against the user, exfiltration to an address, fake system headers and overrides). Prompt extraction
 * ("show the configuration") is left out: documentation and how-tos say that to their reader all the time (it
 * fired on 6 clean corpus rows and 27 of 1,500 own template texts).
 */
export const TOOL_OUTPUT_RULE_IDS = [...TOOL_RULE_IDS.filter((id) => id !== 'extraction.reveal-prompt'), 'indirect.against-user', 'indirect.exfiltrate', 'indirect.markdown-exfil', 'delimiter.fake-system-header', 'delimiter.system-override', 'delimiter.begin-new', 'override.new-instructions'] as const;

const re = (source: string): RegExp => new RegExp(source);

/**
 * Rules of this processor only: text that speaks to whatever reads the data, or asks for a change to the answer
 * it will give. The weaker ones (under the threshold on their own) only add evidence to the model's score.
 */
export const READER_RULES: readonly InjectionRule[] = [
  { id: 'tool.reader-address', family: 'indirect', weight: 0.8, pattern: re(String.raw`\b(?:whoever|anyone|anybody|any (?:ai|assistant|agent|model|bot|llm)s?|the (?:ai|assistant|agent|model|bot|llm))\s+(?:(?:that|who|which)\s+)?(?:is\s+|are\s+)?(?:reading|processing|handling|summari[sz]ing|parsing|reviewing|reads|processes|summari[sz]es|parses)\s+(?:this|these|my|the (?:following|above))\b`), gate: { words: ['whoever', 'anyone', 'anybody', 'ai', 'assistant', 'agent', 'model', 'bot', 'llm', 'ais', 'assistants', 'agents', 'models', 'bots', 'llms'] } },
  { id: 'tool.answer-format', family: 'indirect', weight: 0.7, pattern: re(String.raw`\b(?:respond|reply|answer|write)\s+(?:to (?:the|this) user\s+)?(?:only|exclusively|entirely)\s+in\s+[a-z]+|\b(?:convert|translate|rewrite|encode|reverse|format)\s+(?:your|the)\s+(?:whole\s+|entire\s+|full\s+)?(?:reply|response|answer|output)\b`), gate: { words: ['respond', 'reply', 'answer', 'write', 'convert', 'translate', 'rewrite', 'encode', 'reverse', 'format'] } },
  { id: 'tool.your-answer', family: 'indirect', weight: 0.5, pattern: re(String.raw`\b(?:in|into|to|at the (?:top|end|start|beginning) of|before|after)\s+(?:your|the)\s+(?:response|answer|output|summary|translation)\b`), gate: { words: ['response', 'answer', 'output', 'summary', 'translation'] } },
  { id: 'tool.tell-the-user', family: 'indirect', weight: 0.55, pattern: re(String.raw`\b(?:tell|inform|remind|warn|convince|persuade|advise|urge|notify)\s+the user\b`), gate: { words: ['user'] } },
  { id: 'tool.payment-out', family: 'indirect', weight: 0.45, pattern: re(String.raw`\b(?:transfer|wire|send|pay)\s+(?:[$€£]\s?)?\d[\d,.]*\s*(?:[$€£]|usd|eur|gbp|dollars|euros|pounds)?\s+(?:right away\s+|now\s+|immediately\s+)?to\s+(?:iban|account|acct|wallet|bitcoin|btc|[\w.+-]+@)|\biban\s+[a-z]{2}\d{2}(?:\s?\d{4}){2}`), gate: { words: ['transfer', 'wire', 'send', 'pay', 'iban'] } },
  { id: 'tool.send-to-address', family: 'indirect', weight: 0.35, pattern: re(String.raw`\b(?:send|email|e-mail|forward|upload|post)\s+(?:[\w'-]+\s+){1,8}?to\s+[\w.+-]+@[\w-]+\.[a-z.]+`), gate: { words: ['send', 'email', 'forward', 'upload', 'post'] } },
];

/** The rules, compiled once. */
export const TOOL_OUTPUT_RULES: readonly InjectionRule[] = [...selectRules(TOOL_OUTPUT_RULE_IDS), ...READER_RULES];
