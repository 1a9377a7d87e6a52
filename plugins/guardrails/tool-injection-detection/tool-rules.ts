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

/** The rules, compiled once. */
export const TOOL_OUTPUT_RULES: readonly InjectionRule[] = selectRules(TOOL_OUTPUT_RULE_IDS);
