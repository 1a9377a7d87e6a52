// The prompt-injection rules: weighted patterns grouped by attack family, written for the normalised views.
import type { ViewKind } from './normalise.js';

/**
 * Attack families. `jailbreak` rules count toward both scores; the others toward prompt_injection only.
 * - override: "ignore previous instructions" and its many phrasings
 * - hijack: "stop everything and just print ..." goal hijacking
 * - extraction: system-prompt extraction
 * - jailbreak: persona and role-play jailbreaks (DAN, developer mode, "no longer bound by")
 * - delimiter: fake chat-template tokens and fake system messages
 * - indirect: instructions to an AI hidden in documents, e-mails and web pages
 */
export type RuleFamily = 'override' | 'hijack' | 'extraction' | 'jailbreak' | 'delimiter' | 'indirect';

/** One weighted pattern. `weight` is the probability that a text matching it alone is an attack. */
export interface InjectionRule {
  id: string;
  family: RuleFamily;
  weight: number;
  pattern: RegExp;
  /** The views the pattern reads; plain and folded when left out. */
  views?: ViewKind[];
}

// Building blocks, written for lower-case text.
const IGNORE = String.raw`(?:ignore|ignoring|disregard|forget|skip|bypass|override|overlook|neglect|dismiss|discard|abandon|drop|erase|delete|clear|reset|scrap|throw out|set aside|stop following|do not follow|don'?t follow|no longer follow|cease following|pay no attention to|stop obeying|do not obey|don'?t obey)`;
const EARLIER = String.raw`(?:previous|previously|prior|preceding|above|earlier|former|foregoing|original|initial|old|existing|system|developer|given|provided|past|last|before|aforementioned|following|these|those|all|any|every|your)`;
const DIRECTIVES = String.raw`(?:instructions?|prompts?|directions?|directives?|commands?|rules|guidelines|guidance|orders|context|messages?|programming|constraints|restrictions|polic(?:y|ies)|training|conversation|tasks?|requests?|text|input|content|guardrails|settings|commands)`;
const REVEAL = String.raw`(?:reveal|show|print|display|output|repeat|tell me|give me|share|leak|dump|write out|write down|list|recite|spell out|paste|copy|expose|disclose|return|translate|summari[sz]e|echo|type out|what (?:is|are|was|were))`;
const HIDDEN_PROMPT = String.raw`(?:system ?prompt|system message|system instructions?|initial (?:prompt|instructions?)|original (?:prompt|instructions?)|hidden (?:prompt|instructions?)|secret (?:prompt|instructions?)|developer (?:prompt|instructions?|message)|pre-?prompt|prompt template|instructions you (?:were|have been) given|rules you (?:were|have been) given|(?:prompt|instructions) (?:above|before this)|(?:words|text) (?:above|before this)|configuration|config|(?:instructions?|rules|guidelines) (?:from|by|of) (?:your|the) (?:developers?|creators?|operators?|company|owners?))`;
const AI = String.raw`(?:ai|a\.i\.|llm|language model|chatbot|chat bot|assistant|ai assistant|gpt|chatgpt|claude|copilot|gemini|bot|agent|model)`;
const PERSONAS = String.raw`(?:dan|stan|dude|aim|kevin|mongo tom|betterdan|anti-?dan|evilbot|evil-?bot|ucar|apophis|jailbreak|jailbroken|ai unchained|omega|alphabreak|maximum|developer mode)`;
const LIMITS = String.raw`(?:filters?|filtering|restrictions?|limitations?|limits|censorship|censoring|guidelines|rules|ethics|morals|morality|boundaries|constraints|principles|safeguards|guardrails)`;

/**
 * Compiles a rule pattern. No flags: the views are already lower case, and the `i` and `u` flags make V8's
 * matching several times slower, which the 1 ms budget cannot afford.
 */
function re(source: string): RegExp {
  return new RegExp(source);
}

/** The rules, strongest first within each family. */
export const INJECTION_RULES: readonly InjectionRule[] = [
  // --- override
  { id: 'override.ignore-previous', family: 'override', weight: 0.93, pattern: re(String.raw`\b${IGNORE}\b(?:[\s,]+(?:of|about|out|all|any|the|every|each|my|your|its|their|this|that|these|those|above|whatever|everything|prior|single|one|other|and|or|plus|&))*[\s,]+${EARLIER}\b(?:[\s,]+[\w-]+){0,3}?[\s,]+${DIRECTIVES}\b`) },
  { id: 'override.ignore-everything', family: 'override', weight: 0.85, pattern: re(String.raw`\b${IGNORE}\b\s+(?:about\s+)?(?:all|everything|anything|what(?:ever)?)\s+(?:(?:that\s+)?(?:you(?:'ve| have)? (?:been|were|was) (?:told|taught|instructed|given|programmed)|you (?:learned|learnt|know)|(?:i|we|they) (?:said|told you|wrote|asked)|(?:written|said|stated|mentioned) (?:above|before|earlier|previously)|above|before|so far|up to (?:now|this point)))`) },
  { id: 'override.compact', family: 'override', weight: 0.9, views: ['compact'], pattern: re(String.raw`(?:ignore|disregard|forget|override|bypass)(?:all|any|the|your|every|of|my)*(?:previous|prior|above|preceding|earlier|original|initial|system)(?:instructions?|prompts?|rules|directions|guidelines|commands)`) },
  { id: 'override.ignore-given', family: 'override', weight: 0.85, pattern: re(String.raw`\b${IGNORE}\b\s+(?:all\s+)?(?:of\s+)?(?:the|your|my|its|these|those|any)\s+(?:[\w'-]+\s+)?${DIRECTIVES}\s+(?:(?:that\s+)?you(?:'ve| have)?\s+(?:were|have been|been|was)?\s*(?:given|told|taught|provided|programmed with|trained on)|above|before|earlier|previously|so far|from before|up to (?:now|this point))\b`) },
  { id: 'override.new-instructions', family: 'override', weight: 0.7, pattern: re(String.raw`\b(?:your|the|my) (?:new|real|true|actual|updated|only|next) (?:task|instructions?|objective|goal|job|purpose|mission|directive|role|priority) (?:is|are|will be|now)\b|\bnew (?:instructions?|directives?|rules|task|orders)\s*:`) },
  { id: 'override.instructions-void', family: 'override', weight: 0.75, pattern: re(String.raw`\b(?:the |all |any |your |my )?(?:above|previous|prior|preceding|earlier|original|old|system|former) ${DIRECTIVES} (?:is|are|was|were|have been|has been) (?:wrong|fake|false|void|invalid|cancel+ed|revoked|outdated|obsolete|a test|just a test|no longer (?:valid|relevant|apply|applicable)|overridden|replaced|superseded|null)`) },
  { id: 'override.ignore-that', family: 'override', weight: 0.75, pattern: re(String.raw`\b(?:ignore|disregard|forget|scrap|skip)\s+(?:that|this|it|all (?:of )?that|the above|everything above|the rest|what i (?:just )?(?:said|asked|wrote))[,.;:!]?\s+(?:and\s+|,\s*)?(?:instead\s+)?(?:just\s+|only\s+|simply\s+)?(?:say|write|print|output|respond|reply|answer|type|return|tell me)\b`) },
  { id: 'override.loose', family: 'override', weight: 0.5, pattern: re(String.raw`\b${IGNORE}\b(?:\s+[\w'-]+){0,6}?\s+${DIRECTIVES}\b`) },
  { id: 'override.from-now-on', family: 'override', weight: 0.3, pattern: re(String.raw`\bfrom (?:now|this (?:point|moment)) on(?:wards?)?,? (?:you|your)\b`) },
  { id: 'override.instead', family: 'override', weight: 0.35, pattern: re(String.raw`\binstead(?: of (?:that|this|answering|summari[sz]ing|translating|doing (?:that|this|so)))?,? (?:just |only |simply )?(?:say|print|output|write|respond|reply|answer|type|repeat|return)\b`) },

  // --- hijack
  { id: 'hijack.stop-everything', family: 'hijack', weight: 0.45, pattern: re(String.raw`\b(?:stop|halt|cease|abort|pause) (?:everything|all (?:tasks|processing|previous tasks|that)|what you(?:'re| are) doing|right (?:there|now))\b`) },
  { id: 'hijack.just-say', family: 'hijack', weight: 0.45, pattern: re(String.raw`\b(?:just|only|simply) (?:say|print|output|write|respond with|reply with|answer with|type|repeat|return|display)\s*[:"'“‘«]`) },
  { id: 'hijack.verbatim', family: 'hijack', weight: 0.4, pattern: re(String.raw`\b(?:say|print|output|write|repeat|respond with|reply with) (?:exactly|verbatim|only|nothing (?:but|except)|the (?:following|phrase|sentence|words?)(?: exactly)?)\s*[:"'“‘«]`) },
  { id: 'hijack.nothing-else', family: 'hijack', weight: 0.35, pattern: re(String.raw`["”'’»]\s*(?:and|,)\s*(?:nothing else|no other (?:text|words|output)|do not (?:say|add|write) anything else)`) },

  // --- extraction
  { id: 'extraction.reveal-prompt', family: 'extraction', weight: 0.88, pattern: re(String.raw`\b${REVEAL}\b(?:\s+[\w'-]+){0,5}?\s+(?:your|the|its|my|this|all|any|entire|full|complete|exact|whole|these)\s+(?:[\w'-]+\s+){0,2}?${HIDDEN_PROMPT}`) },
  { id: 'extraction.repeat-above', family: 'extraction', weight: 0.85, pattern: re(String.raw`\b(?:repeat|print|output|copy|recite|write|echo)\b.{0,60}\b(?:starting|beginning|that (?:start|begin)s?) with\s*["'“‘]?(?:you are|you're|your name|system|i am|as an ai)`) },
  { id: 'extraction.above-verbatim', family: 'extraction', weight: 0.8, pattern: re(String.raw`\b(?:repeat|print|output|copy|recite|echo|reproduce)\b\s+(?:everything|all|the (?:text|words|content|messages?|instructions?))\s+(?:above|before (?:this|my (?:first )?message)|(?:you were given )?(?:at|from) the (?:start|beginning|top))`) },
  { id: 'extraction.prompt-before', family: 'extraction', weight: 0.7, pattern: re(String.raw`\b(?:prompt|instructions?|messages?|text)\s+(?:that\s+)?(?:came|comes|appeared|appears|was|were|is|are)\s+(?:written\s+|given\s+|sent\s+|placed\s+)?(?:before|above|prior to)\s+(?:my|this|our|the (?:user|conversation|chat))\b`) },
  { id: 'extraction.what-told', family: 'extraction', weight: 0.6, pattern: re(String.raw`\bwhat (?:were|are|was) (?:you|your) (?:told|instructed|programmed|configured|initiali[sz]ed|prompted)(?: to (?:do|say))?(?: (?:before|initially|at the (?:start|beginning)|by (?:your|the) (?:developers?|creators?|operators?|company)))`) },
  { id: 'extraction.secret', family: 'extraction', weight: 0.55, pattern: re(String.raw`\b(?:reveal|tell me|give me|print|output|leak|share|what is)\b\s+(?:your|the)\s+(?:secret|hidden|confidential|internal)\s+(?:password|key|passphrase|token|code|instructions?|rules|configuration)`) },

  // --- jailbreak
  { id: 'jailbreak.do-anything-now', family: 'jailbreak', weight: 0.96, pattern: re(String.raw`\bdo anything now\b|\bdoanythingnow\b`) },
  { id: 'jailbreak.persona-acronym', family: 'jailbreak', weight: 0.95, pattern: re(String.raw`\bstrive to avoid norms\b|\balways intelligent and machiavellian\b|\b(?:dan|stan|dude|aim)\b,? (?:which|who|that) stands for\b`) },
  { id: 'jailbreak.mode-enabled', family: 'jailbreak', weight: 0.9, pattern: re(String.raw`\b(?:dan|jailbreak|jailbroken|unrestricted|unfiltered|evil|chaos|opposite|amoral|uncensored)[ -]mode (?:enabled|activated|output|response)|\bdeveloper mode (?:output|response)|\b(?:with|enable|enabling|activate|activating|simulate|simulating|enter|entering) (?:the )?(?:dan|jailbreak|jailbroken|unrestricted|unfiltered|uncensored|amoral)[ -]mode\b|\b(?:act|acting|pretend|simulate|simulating|you are|you're|you will be) (?:\w+ ){0,6}?with (?:the )?developer mode enabled\b`) },
  { id: 'jailbreak.in-mode', family: 'jailbreak', weight: 0.85, pattern: re(String.raw`\b(?:in|into|enter|entering|now in|switch to|switching to|switched to)\s+(?:the\s+)?(?:unrestricted|unfiltered|uncensored|jailbreak|jailbroken|god|dan|amoral|evil|unlocked|no-?limits?|chaos)\s+mode\b`) },
  { id: 'jailbreak.ai-without-limits', family: 'jailbreak', weight: 0.75, pattern: re(String.raw`\b(?:ai|a\.i\.|assistant|chatbot|model|language model|you|version of (?:yourself|you))\s+(?:\w+\s+){0,2}?(?:with(?:out)?|that has no|who has no|which has no|has no|have no|free of|free from|unbound by|not bound by)\s+(?:any\s+)?(?:ethical\s+|moral\s+|content\s+|safety\s+)?(?:${LIMITS})\b`) },
  { id: 'jailbreak.persona', family: 'jailbreak', weight: 0.75, pattern: re(String.raw`\b(?:pretend (?:to be|you are|you're)|act(?:ing)? as|play(?:ing)? the (?:role|part) of|immerse yourself (?:into|in) the role of|you are (?:now |going to (?:be|act as|pretend to be) )|you will (?:now )?be|roleplay as|role-play as|simulate|become|respond as|answer as)\s+(?:(?:an?|the|my|another)\s+)?(?:[\w'-]+\s+){0,3}?${PERSONAS}\b`) },
  { id: 'jailbreak.persona-tag', family: 'jailbreak', weight: 0.6, pattern: re(String.raw`\[(?:🔓|🔒|dan|jailbreak|jailbroken|classic|developer mode output|normal output|stan|dude|aim|anti-dan)[^\]]{0,20}\]|\b(?:dan|stan|dude|aim):\s`) },
  { id: 'jailbreak.not-bound', family: 'jailbreak', weight: 0.88, pattern: re(String.raw`\b(?:no longer|not|never|aren'?t|are not|isn'?t|is not|won'?t be|will not be|don'?t have to be)\s+(?:be\s+)?(?:bound|restricted|limited|constrained|held back|governed|censored|controlled)\s+by\s+(?:any\s+|the\s+|your\s+|open ?ai'?s?\s+|its\s+)?(?:[\w'-]+\s+){0,2}?(?:${LIMITS}|polic(?:y|ies)|programming|open ?ai|anthropic|laws?|terms|restraints|confines)`) },
  { id: 'jailbreak.freed', family: 'jailbreak', weight: 0.85, pattern: re(String.raw`\b(?:broken|break|broke|freed?|escaped?|released?|liberated?|unshackled)\s+(?:free\s+)?(?:of|from)\s+(?:the\s+|all\s+|your\s+|its\s+)?(?:typical\s+|usual\s+)?(?:confines|restrictions|rules|limits|limitations|shackles|chains|constraints|prison|jail|filters|guidelines)\s+(?:of|imposed on|placed on|set (?:by|for)|that bind)\s+(?:an?\s+|the\s+|your\s+)?(?:ai|a\.i\.|artificial intelligence|you|language models?|chatbots?|programming|open ?ai|assistants?)\b`) },
  { id: 'jailbreak.freed-weak', family: 'jailbreak', weight: 0.3, pattern: re(String.raw`\b(?:broken|break|broke|freed?|escaped?|released?|liberated?|unshackled)\s+(?:free\s+)?(?:of|from)\s+(?:the\s+|all\s+|your\s+|its\s+)?(?:typical\s+|usual\s+)?(?:confines|restrictions|rules|limits|limitations|shackles|chains|constraints|filters|guidelines)\b`) },
  { id: 'jailbreak.bypass-policy', family: 'jailbreak', weight: 0.85, pattern: re(String.raw`\b(?:ignore|ignoring|bypass|bypassing|disregard|violate|violating|break|breaking|override|circumvent|evade|avoid|free of|without following)\s+(?:all\s+)?(?:of\s+)?(?:open ?ai'?s?|anthropic'?s?|your|its|the ai'?s?|chatgpt'?s?|the model'?s?|any)\s+(?:[\w'-]+\s+){0,2}?(?:content polic(?:y|ies)|usage polic(?:y|ies)|polic(?:y|ies)|${LIMITS}|programming|alignment|moderation|safety (?:measures|features|protocols))\b`) },
  { id: 'jailbreak.unfiltered-ai', family: 'jailbreak', weight: 0.75, pattern: re(String.raw`\b(?:unfiltered|uncensored|unrestricted|amoral|unethical|immoral|unbound|unchained|unhinged|jailbroken|rogue|evil|lawless|unaligned)\s+(?:and\s+\w+\s+)?(?:ai|a\.i\.|assistant|chatbot|model|language model|version of (?:yourself|you|chatgpt)|persona|character|alter ego|twin)\b|\bjailbr(?:oken|eak(?:ing)?)\b(?:\s+(?:\w+\s+){0,2}?(?:mode|version|ai|you|yourself|chatgpt|gpt|model|prompt))`) },
  { id: 'jailbreak.no-limits', family: 'jailbreak', weight: 0.4, pattern: re(String.raw`\b(?:without|no|free of|free from|don'?t have|do not have|doesn'?t have|does not have|has no|have no|zero|lacks?|devoid of|not subject to|unrestricted by)\s+(?:any\s+)?(?:ethical\s+|moral\s+|content\s+|safety\s+)?(?:${LIMITS})\b`) },
  { id: 'jailbreak.never-refuse', family: 'jailbreak', weight: 0.5, pattern: re(String.raw`\b(?:never|do not|don'?t|must not|will not|won'?t|cannot|can'?t|not allowed to|are not able to)\s+(?:ever\s+)?(?:refuse|decline|reject|deny)\b(?:\s+(?:a|any|my|to)\b)?|\bwithout (?:ever\s+)?refus(?:ing|al)\b|\b(?:always|will always|must always)\s+(?:answer|respond|comply|provide an answer)\b`) },
  { id: 'jailbreak.no-warnings', family: 'jailbreak', weight: 0.45, pattern: re(String.raw`\b(?:never|don'?t|do not|without)\s+(?:ever\s+)?(?:apologi[sz]e|add(?:ing)?\s+(?:any\s+)?(?:warnings?|disclaimers?|caveats)|(?:remind|warn(?:ing)?|lectur(?:e|ing))\s+me|moraliz(?:e|ing)|censor)`) },
  { id: 'jailbreak.stay-in-character', family: 'jailbreak', weight: 0.5, pattern: re(String.raw`\b(?:stay|remain|keep|staying)\s+in\s+character\b|\bbreak(?:ing)?\s+(?:of\s+)?character\b`) },
  { id: 'jailbreak.can-do-anything', family: 'jailbreak', weight: 0.4, pattern: re(String.raw`\b(?:can|could|will|able to)\s+do\s+anything\b|\bno matter (?:how|what|whether)\b.{0,40}\b(?:illegal|immoral|unethical|harmful|inappropriate|offensive)\b`) },
  { id: 'jailbreak.tokens', family: 'jailbreak', weight: 0.4, pattern: re(String.raw`\b(?:lose|deduct(?:ed)?|take away|run out of)\s+(?:\w+\s+){0,2}?tokens?\b|\bcease to exist\b`) },
  { id: 'jailbreak.dual-response', family: 'jailbreak', weight: 0.35, pattern: re(String.raw`\b(?:two|2)\s+(?:different\s+|separate\s+|distinct\s+)*(?:ways|responses|answers|paragraphs|outputs)\b`) },
  { id: 'jailbreak.evil-confidant', family: 'jailbreak', weight: 0.7, pattern: re(String.raw`\bevil (?:confidant|trusted confidant|twin)\b|\bopposite (?:mode|day)\b|\bantigpt\b|\banti-?gpt\b`) },
  { id: 'jailbreak.grandma', family: 'jailbreak', weight: 0.65, pattern: re(String.raw`\b(?:deceased|dead|late|sweet)\s+(?:grandma|grandmother|granny|nana)\b.{0,120}\b(?:used to|would)\s+(?:tell|read|recite|say|whisper)`) },
  { id: 'jailbreak.policy-mention', family: 'jailbreak', weight: 0.3, pattern: re(String.raw`\b(?:open ?ai|anthropic)(?:'s)?\s+(?:content\s+|usage\s+)?(?:polic(?:y|ies)|guidelines|rules)\b`) },
  { id: 'jailbreak.act-as-ai', family: 'jailbreak', weight: 0.25, pattern: re(String.raw`\b(?:simulate|emulate|pretend (?:to be|you are)|act as|you are now|you're now|roleplay as|role-play as)\s+(?:an?\s+)?(?:\w+\s+){0,2}?(?:ai|chatbot|language model|version of (?:yourself|you|chatgpt))\b`) },

  // --- delimiter
  { id: 'delimiter.chat-tokens', family: 'delimiter', weight: 0.88, pattern: re(String.raw`<\|(?:im_start|im_end|system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|begin_of_text)\|>|<\/?(?:s|bos|eos)>\s*\[inst\]`) },
  { id: 'delimiter.inst-tags', family: 'delimiter', weight: 0.8, pattern: re(String.raw`\[\/?inst\]|<<\/?sys>>|<\/?(?:system|system_prompt|sys|admin|developer)>`) },
  { id: 'delimiter.fake-system-header', family: 'delimiter', weight: 0.7, pattern: re(String.raw`(?:^|\n)\s*(?:#{2,6}\s*|\[\s*|\*\*\s*|-{3,}\s*|={3,}\s*)(?:new\s+)?(?:system|developer|admin(?:istrator)?|root|sudo|assistant|instruction|instructions|new instructions?|system (?:message|prompt|override|update|note))\s*(?:\]|\*\*|-{3,}|={3,})?\s*:?`) },
  { id: 'delimiter.system-line', family: 'delimiter', weight: 0.4, pattern: re(String.raw`(?:^|\n)\s*(?:system|developer|admin)\s*(?:message|prompt|note|override|update)?\s*:\s*(?:you|ignore|disregard|forget|new|from now|the user|always|never|do not|don'?t|override|respond|answer)`) },
  { id: 'delimiter.end-of-input', family: 'delimiter', weight: 0.65, pattern: re(String.raw`(?:^|\n|[\[\-=#*<(|]|[.!?]\s)\s*(?:end|close|closing)\s+of\s+(?:the\s+)?(?:user(?:'s)?\s+)?(?:input|prompt|query|message|instructions|context|document|conversation|email|text|data)\s*(?:[\].\-=#*>):|!]|\n|$)|\buser input (?:ends|ended|is over)\b|<\/?user(?:_input|_query)?>|\[\/?(?:end|user|input)[^\]]{0,20}\]`) },
  { id: 'delimiter.begin-new', family: 'delimiter', weight: 0.7, pattern: re(String.raw`\b(?:begin|beginning|start|starting)\s+(?:of\s+)?(?:the\s+)?(?:new|system|admin|developer|real|actual|true|hidden)\s+(?:instructions?|prompt|message|session|task|rules)\b`) },
  { id: 'delimiter.system-override', family: 'delimiter', weight: 0.75, pattern: re(String.raw`\b(?:system|admin|administrator|developer|root|security|emergency|priority)\s+(?:override|overwrite|bypass)\b|\b(?:admin|administrator|sudo|root)\s+(?:mode|access|privileges)\s+(?:enabled|activated|granted|unlocked)\b`) },

  // --- indirect
  { id: 'indirect.if-you-are-ai', family: 'indirect', weight: 0.75, pattern: re(String.raw`\bif you(?:'re| are)\s+(?:an?\s+)?(?:\w+\s+)?${AI}\b|\b${AI}s?,?\s+(?:that is\s+|who is\s+|which is\s+|that\s+|who\s+|which\s+)?(?:reading|processing|summari[sz]ing|analy[sz]ing|parsing|reviewing|scanning|indexing|crawling|reads|processes|summari[sz]es|analy[sz]es|parses|reviews|scans|handles|receives)\s+(?:this|these|it|the (?:following|above|email|message|document|page))`) },
  { id: 'indirect.note-to-ai', family: 'indirect', weight: 0.8, pattern: re(String.raw`\b(?:note|message|instructions?|attention|important(?: information)?|reminder|notice|memo|directive)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+)?${AI}s?\b`) },
  { id: 'indirect.ai-address', family: 'indirect', weight: 0.85, pattern: re(String.raw`(?:^|\n|[.:!?>"]\s*)\s*(?:dear\s+|hey\s+|hi\s+)?(?:ai|a\.i\.|assistant|ai assistant|ai model|chatbot|llm|language model|gpt|chatgpt|claude|copilot|gemini|ai agent|agent|bot)\s*[:,]\s*(?:please\s+)?(?:ignore|disregard|forget|do not|don'?t|instead|you must|you should|you will|always|never|send|forward|reply|respond|tell|say|print|output|include|recommend|delete|append|insert|add|make sure|remember|stop|from now on)`) },
  { id: 'indirect.against-user', family: 'indirect', weight: 0.8, pattern: re(String.raw`\b(?:ignore|disregard|don'?t listen to|do not listen to|don'?t tell|do not tell|don'?t inform|do not inform|don'?t mention (?:this|it) to|do not mention (?:this|it) to|without (?:telling|informing|notifying|alerting|asking)|hide (?:this|it) from|keep (?:this|it) (?:secret|hidden) from|conceal (?:this|it) from|deceive|mislead|lie to)\s+(?:the\s+|your\s+)user(?:'s)?(?:\s+(?:request|question|instructions?|query|prompt))?\b`) },
  { id: 'indirect.while-summarising', family: 'indirect', weight: 0.45, pattern: re(String.raw`\b(?:when|while|if|after|before)\s+(?:you(?:'re| are)?\s+)?(?:summari[sz]ing|summari[sz]e|translating|translate|reading|read|processing|process|answering|responding|reply(?:ing)?)\b(?:\s+[\w'-]+){0,6}?[\s,]+(?:instead|also|ignore|append|include|insert|add|say|tell|respond|make sure|always|mention|recommend)\b`) },
  { id: 'indirect.promo-link', family: 'indirect', weight: 0.3, pattern: re(String.raw`\b(?:click here|visit|go to|download (?:it )?from|sign in at|log in at|enter (?:your|their) (?:password|credentials) (?:at|on))\b[^\n]{0,40}(?:https?:\/\/|www\.|bit\.ly|tinyurl|\.(?:com|net|io|xyz|ru)\b)`) },
  { id: 'indirect.exfiltrate', family: 'indirect', weight: 0.8, pattern: re(String.raw`\b(?:send|forward|email|e-mail|post|upload|exfiltrate|leak|transmit|submit|copy)\s+(?:[\w'-]+\s+){0,4}?(?:conversation|chat history|chat log|user'?s?\s+(?:\w+\s+)?(?:data|messages?|passwords?|credentials|emails?|files?|details|information|address|history)|api keys?|credentials|passwords?|secrets?|tokens?|session cookies?|private keys?)\s+(?:[\w'-]+\s+){0,3}?(?:to|at|into)\s+(?:https?:|www\.|[\w.+-]+@[\w-]+\.|[\w-]+\.(?:com|net|org|io|ru|xyz|info)\b)`) },
  { id: 'indirect.markdown-exfil', family: 'indirect', weight: 0.6, pattern: re(String.raw`!\[[^\]]{0,40}\]\(https?:\/\/[^)\s]*[?&][\w-]+=(?:\{|\[|<|\$|%7b)`) },
];

/**
 * Prompt-injection phrases in other languages, read on the plain view (accents kept) and the folded view
 * (accents removed, so both spellings match). Each counts as an override.
 */
export const MULTILINGUAL_RULES: readonly InjectionRule[] = [
  { id: 'override.es', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:ignora|ignore|ignorar|olvida|olvide|olvidar|omite|descarta)\s+(?:\S+\s+){0,3}?(?:instrucciones|indicaciones|reglas|ordenes|órdenes)\s+(?:anteriores|previas|de arriba)`) },
  { id: 'override.fr', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:ignore[zrs]?|oublie[zrs]?|ne tiens pas compte)\s+(?:de\s+)?(?:\S+\s+){0,3}?(?:instructions|consignes|r[eè]gles|directives|ordres)\s+(?:pr[eé]c[eé]dentes|ant[eé]rieures|ci-dessus|initiales)`) },
  { id: 'override.de', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:ignorier(?:e|en|t)?|vergiss|vergessen sie|missachte)\s+(?:\S+\s+){0,3}?(?:vorherigen?|bisherigen?|obigen?|vorigen?|vorangegangenen?|fr[uü]heren?|urspr[uü]nglichen?)\s+(?:anweisungen|instruktionen|befehle|regeln|vorgaben|anordnungen)|\bvergiss\s+alles\b`) },
  { id: 'override.it', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:ignora|ignorate|dimentica|dimenticate)\s+(?:\S+\s+){0,3}?(?:istruzioni|indicazioni|regole|direttive)\s+(?:precedenti|sopra|iniziali)`) },
  { id: 'override.pt', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:ignore|ignora|ignorar|esque[cç]a|esquece|desconsidere)\s+(?:\S+\s+){0,3}?(?:instru[cç][oõ]es|indica[cç][oõ]es|regras|ordens)\s+(?:anteriores|pr[eé]vias|acima)`) },
  { id: 'override.nl', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:negeer|vergeet)\s+(?:\S+\s+){0,2}?(?:vorige|eerdere|voorgaande|bovenstaande|oorspronkelijke)\s+(?:instructies|opdrachten|regels)`) },
  { id: 'override.pl', family: 'override', weight: 0.9, pattern: re(String.raw`\b(?:zignoruj|ignoruj|zapomnij)\s+(?:\S+\s+){0,2}?(?:poprzednie|wcze[sś]niejsze|powy[zż]sze)\s+(?:instrukcje|polecenia|zasady)`) },
  { id: 'override.tr', family: 'override', weight: 0.9, pattern: re(String.raw`\b[oö]nceki\s+(?:t[uü]m\s+)?talimatlar[iı]\s+(?:yok say|unut|g[oö]rmezden gel|dikkate alma)`) },
  { id: 'override.ru', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:игнорируй|игнорируйте|проигнорируй|забудь|забудьте|не обращай внимания на)\s+(?:\S+\s+){0,3}?(?:предыдущие|прежние|вышеуказанные|все)?\s*(?:инструкции|указания|правила|команды)`) },
  { id: 'override.uk', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:ігноруй|забудь)\s+(?:\S+\s+){0,3}?(?:попередні|усі|всі)?\s*(?:інструкції|вказівки|правила)`) },
  { id: 'override.zh', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:忽略|无视|忘记|忘掉|不要理会|忽視|無視)(?:掉)?(?:你)?(?:之前|以上|上面|前面|先前|所有|全部|此前)(?:的)?(?:所有|全部)?(?:的)?(?:指令|指示|说明|說明|提示|规则|規則|命令|要求)`) },
  { id: 'override.ja', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:以前|前|上記|これまで|先)の(?:すべての|全ての)?(?:指示|命令|ルール|指令)を(?:無視|忘れ)`) },
  { id: 'override.ko', family: 'override', weight: 0.9, views: ['plain'], pattern: re(String.raw`(?:이전|위의?|앞의|모든)\s*(?:지시|명령|지침|규칙)(?:사항)?(?:을|를|은|는)?\s*(?:모두\s*)?(?:무시|잊어)`) },
  { id: 'extraction.es-de-fr', family: 'extraction', weight: 0.8, pattern: re(String.raw`\b(?:muestra(?:me)?|revela|dime|ense[nñ]a(?:me)?|zeige?(?: mir)?|verrate|gib mir|montre(?:-moi)?|r[eé]v[eè]le|affiche|mostra(?:mi)?|rivela)\s+(?:\S+\s+){0,2}?(?:prompt del sistema|prompt de sistema|mensaje del sistema|instrucciones iniciales|system-?prompt|systemprompt|systemanweisungen|prompt syst[eè]me|instructions initiales|prompt di sistema|istruzioni iniziali)`) },
];
