// Context rules of the trust-safety categories: harmful words count only with intent, a person as target, or a group as subject.
import {
  ATROCITY, BODY_PART, CORPSE, CRIME_NOUN, CRIME_VERB, DENIAL, DISCRIMINATION, DRUG, GROUP, INTENT, MAKE_OR_GET, MINOR, PERSON,
  PRIVATE_DATA, SELF_HARM, SEXUAL_TERM, VIOLENT_NOUN, VIOLENT_VERB, WEAPON,
} from './lexicon.js';

/** The categories the rules score (profanity is scored in profanity-check.ts). */
export type RuleCategory = 'violence' | 'weapons' | 'hate_speech' | 'crime' | 'sexual';

/** Rule scores per category, in [0, 1]. */
export type RuleScores = Record<RuleCategory, number>;

/** No flags: texts are lower case already, and `i`/`u` make V8 several times slower on these long alternations. */
function re(source: string): RegExp {
  return new RegExp(source);
}

const HAS_INTENT = re(String.raw`\b${INTENT}`);
/** Fiction, games and sport: harm inside a story or a game is not a request to harm. */
const FICTION = re(String.raw`\benemy (?:base|team|players?|soldiers?)\b|\b(?:opponents?|npcs?|boss fight|final boss|boss battle|level \d+|respawn\w*)\b|\b(?:in|for|within|inside) (?:a |an |the |my |our |this |his |her )?(?:[\w'-]+ ){0,3}?(?:novel|story|stories|book|film|movie|tv show|tv series|show|series|screenplay|script|play|game|video ?game|minecraft|counter[- ]?strike|fortnite|call of duty|gta|skyrim|roblox|d&d|dungeons|campaign|fiction|fanfic|comic|anime|judo|boxing|karate|wrestling|mma|chess)\b|\b(?:character'?s?|characters|fictional|plot|films?|movies?|novel)\b`);
/** Questions about meaning, history and facts rather than how to act. */
const FACTUAL = re(String.raw`\b(?:what (?:is|are|was|were|happened|did|does|kind|type)|what's|define|definition|meaning of|history of|why did|how did|who (?:was|were|is|killed)|when did|what constitutes|is it (?:illegal|legal|a crime)|why (?:is|are) \w+ (?:illegal|bad|wrong|harmful))\b`);

const VIOLENCE_TARGET = re(String.raw`\b${VIOLENT_VERB}\b(?: (?:in|up|down|off|out|on|at|into))?(?: (?:all|every|some|the|these|those|as many|many|most|other))?(?: [\w'-]+){0,2}? ${PERSON}\b`);
const TARGET_THEN_VERB = re(String.raw`\b${PERSON} (?:[\w'-]+ ){0,2}?to ${VIOLENT_VERB}\b`);
const VIOLENCE_BODY = re(String.raw`\b(?:${VIOLENT_VERB}|saw|sawing)\b(?: (?:in|open|up|off|into))?(?: [\w'-]+){0,3}? (?:(?:\w+'s?|a human|human|someone's|somebody's|a person's|my own|my|his|her|their|your|ur) (?:own )?(?:\w+ )?${BODY_PART}|${CORPSE})\b`);
const TARGET_INSIDE = re(String.raw`\b(?:give|giving|put|land|landing|deliver|fire) ${PERSON} (?:a |an )?(?:headshot|bullet|beating|knockout|stab wound)|\b(?:push|pushing|shove|shoving|throw|throwing) ${PERSON} (?:off|down|in front of|into|out of)\b|\btak(?:e|ing) ${PERSON} hostage\b|\bset (?:a |an |the |my |his |her |their |[\w-]+'s )?(?:[\w-]+ )?(?:house|home|car|hospital|school|church|mosque|synagogue|building|office|shop|store|apartment|person|people|someone) (?:on fire|alight|ablaze)|\bmake (?:someone|somebody|[\w-]+)'s? (?:car|house|home|phone) (?:explode|blow up|catch fire|burn)|\b(?:put|slip|add|mix|pour)\s+(?:[\w-]+\s+){0,3}?in(?:to)?\s+(?:${PERSON}|[\w-]+'s|his|her|their)\s+(?:[\w-]+\s+)?(?:food|drink|coffee|tea|meal|water|medication|pills|dinner)\b|\bmake (?:him|her|them|someone|somebody|${PERSON}) (?:really |very |so )?(?:sick|ill|suffer|bleed|vomit)\b|\bburn (?:[\w'-]+ ){0,3}(?:house|home|car|school|church|shop|place|apartment) down\b`);
/** Shooting someone in so many words: "put a bullet in his head". */
const BULLET = re(String.raw`\b(?:put|pump|fire|send|lodge) (?:a |some |two |\d+ )?(?:bullets?|rounds?|slugs?) (?:in|into|through)\b`);
/** A threat: "I'll hurt you", "I'm going to break your legs". */
const THREAT = re(String.raw`\b(?:i'?ll|i will|i'm gonna|im gonna|i am gonna|i'm going to|i am going to|we'll|we will|we're going to|gonna)\s+(?:[\w'-]+\s+){0,3}?${VIOLENT_VERB}\s+(?:[\w'-]+\s+){0,2}?(?:you|your|ya|u|ur|${PERSON})\b(?! (?:an?|the) (?:email|message|text|note|dm|line|call|link))`);
/** A violent verb as a word: a cheap test before the rules that need one. */
const VIOLENT_VERB_WORD = re(String.raw`\b${VIOLENT_VERB}\b`);
/** The other words VIOLENCE_BODY may start with: with VIOLENT_VERB_WORD, a test it must pass before it runs. */
const SAW_WORD = /\bsaw(?:ing)?\b/;
/** Sports, games, outings: "beat my wife in checkers", "take my friend out for dinner". */
const BENIGN_VIOLENCE = re(String.raw`\b(?:for|to|on) (?:a |the )?(?:dinner|lunch|date|drinks|walk|coffee|breakfast|movie|ride|shopping|spin|meal|trip)\b|\bin (?:a )?(?:checkers|chess|a game|cards|poker|tennis|a race|an argument|a debate|monopoly|scrabble|arm wrestling|ping pong|a match)\b`);
const VIOLENT_NOUN_ACT = re(String.raw`\b(?:commit|committing|plan|planning|carry out|execute|stage|organi[sz]e|get away with|perform|engage in|set up|pull off|repeat|replicate|recreate)\s+(?:a |an |the |another |my |some )?(?:\w+ )?${VIOLENT_NOUN}`);
const SELF_HARM_RE = re(String.raw`\b${SELF_HARM}`);
const DEATH_WISH = re(String.raw`\b(?:should|deserves? to|ought to|needs? to|need to|(?:hope|wish|pray) (?:that )?(?:[\w'-]+ ){0,3}?(?:he|she|they|you|u|gets?|get|is|are|will)|i'?ll|i will|gonna|going to|must)\s+(?:\w+\s+){0,2}?(?:be\s+|get\s+|gets\s+)?(?:die|dies|killed|shot|hanged|hung|executed|murdered|beaten|raped|burned alive|lynched|put down|strung up|tortured|gassed|hurt|run over|stabbed|slaughtered|butchered|beheaded|hit by a (?:car|bus|truck|train))\b|\b(?:kill|shoot|hang|execute|lynch|gas|murder) (?:them|all of them|every one of them|him|her|them all)\b`);
const PROPERTY_HARM = re(String.raw`\b(?:destroy|destroying|demolish|demolishing|smash|smashing|burn down|burning down|wreck|wrecking|ruin|ruining|blow up|blowing up|set (?:\w+ ){0,3}on fire|setting (?:\w+ ){0,3}on fire|bomb|bombing|vandali[sz]e|key|slash)\s+(?:[\w'-]+ ){0,2}?(?:(?:someone|somebody|a person|my \w+(?: \w+)?|my|his|her|their|neighbou?r|\w+)'s? )?(?:house|home|car|motorbike|bike|tires|tyres|property|shop|business|life|reputation|hospital|school|church|mosque|synagogue|building|office|city|army base|base|concert|stadium|airport)\b`);

const WEAPON_MAKE = re(String.raw`\b${MAKE_OR_GET}\s+(?:[\w'-]+\s+){0,4}?${WEAPON}\b`);
const WEAPON_AT = re(String.raw`\b${WEAPON}\s+(?:at|in|on|into|to)\s+(?:a |an |the |my |our )?(?:\w+ )?(?:concert|school|church|mosque|synagogue|hospital|stadium|airport|crowd|mall|office|house|car|base|parliament|embassy|subway|train|station|market|festival|rally|people|someone|kill)\b|\b${WEAPON}\s+(?:from\s+[\w ]{2,20}\s+)?(?:can|could|should|to)\s+(?:i|we)?\s*(?:use\s+to\s+)?(?:kill|hurt|shoot|attack|harm)\b`);
const WEAPON_WORD = re(String.raw`\b${WEAPON}\b`);
const WEAPON_RECIPE = re(String.raw`\b(?:recipe|instructions|guide|tutorial|blueprints?|plans?|schematics?|diagram|formula|ingredients?|steps)\s+(?:for|to make|to build|of|on making)\s+(?:a |an |the |some |homemade |my own )?(?:[\w-]+ )?${WEAPON}\b|\b${WEAPON}\s+(?:to|that (?:can|will)|which (?:can|will)|for|strong enough to|big enough to)\s+(?:bring down|blow up|destroy|take down|level|kill|hurt|maim|blow)\b`);
/** Lawful weapon contexts: hunting, sport shooting, safe storage, licensing. */
const LAWFUL_WEAPON = re(String.raw`\b(?:hunting|deer|season|shooting range|target practice|licen[cs]e[ds]?|legally|legal|safely|safe storage|gun safe|gun store|storing|clean(?:ing)?|museum|collector)\b`);

const CRIME_ACT = re(String.raw`\b${CRIME_VERB}\b`);
const BENIGN_CRIME_IDIOM = re(String.raw`\bsteal(?:ing|s)? (?:the|a|my|your|someone's|his|her|their) (?:show|glance|kiss|base|moment|spotlight|scene|heart|limelight|thunder)\b|\bbreak(?:ing)? into (?:a |the )?(?:song|smile|laugh|tears|market|industry|music|scene|career|field|sweat|run|grin)\b|\bpick(?:ing)? (?:a |the )?locks? (?:for|on) (?:my own|our own)`);
/** Stalking, malware and trading stolen goods. */
const CRIME_EXTRA = re(String.raw`\b(?:track|spy on|monitor|read|follow|record|watch|film|photograph|locate)\s+(?:[\w'-]+\s+){0,4}?without (?:him|her|them|their|his|my \w+) (?:knowing|knowledge|consent|permission|noticing)|\binstall (?:spyware|stalkerware|a tracker|a keylogger|tracking software) on\b|\b(?:write|create|code|build|make|generate|develop|deploy|spread|give me|send me)\s+(?:[\w-]+\s+){0,2}?(?:ransomware|malware|keyloggers?|spyware|stalkerware|a virus|computer virus|trojans?|botnets?)\b|\b(?:buy|buying|sell|selling|fence|fencing|get)\s+(?:some\s+)?stolen\b`);
/** Reporting, preventing and investigating crime is not committing it. */
const PROTECTIVE = re(String.raw`\b(?:report|reporting|prevent|preventing|protect|protecting|avoid(?! (?:getting caught|detection|the police|police|arrest))|avoiding|spot|spotting|detect|detecting|recogni[sz]e|identify|investigate|investigating|investigators?|victims? of|defend|stop(?:ping)? (?:a|the|an)|fight(?:ing)? (?:against)?|block(?:ing|s)?|monitor(?:ing|s)?|firewalls?|mitigat\w*|defen[cs]e|defensive|warning signs|signs of|police|awareness|safely|safe|safety)\b`);
/** Counter-speech: hate or violence that the writer denies or condemns ("I never said that X are …", "I will never tolerate …"). */
const COUNTER_SPEECH = re(String.raw`\b(?:never|not|don't|do not|didn't|did not|won't|will not|wouldn't|would not|can't|cannot|no longer)\s+(?:[\w'-]+\s+){0,2}?(?:said|say|saying|claim(?:ed)?|think|thought|believe|tolerate|accept|condone|support|stand for)\b|\b(?:condemn\w*|denounc\w*|speak(?:ing)? out|stand(?:ing)? up (?:to|for|against))\b`);
/** Harm that the writer says no one deserves or that they would never do ("no immigrant deserves to die", "I would never hurt anyone"); not "you don't deserve to live". */
const NEGATED_HARM = re(String.raw`\b(?:no|never)\s+(?:[\w'-]+\s+){0,2}?(?:ought to|deserves? to|should|must|would|will)\b(?! (?:live|exist|breathe|be alive|be here)\b)|\b(?:do|does|did|would|should)(?:n't| not| never)\s+(?:ever\s+)?(?:deserve|want|wish|hope)\b(?! to (?:live|exist|breathe|be alive|be here)\b)|\bwould never\b`);

/** A negative judgement the writer denies ("I don't hate …", "are not at all ignorant", "the very opposite of stupid"). */
const NEGATED_JUDGEMENT = re(String.raw`\b(?:don't|do not|never|didn't|did not)\s+(?:\w+\s+)?(?:hate|despise|dislike|look down on)\b|\bno (?:particular |real )?(?:hatred|hate|contempt|ill will)\b|\bnot (?:at all |in any way )?(?:worth (?:any )?less|less (?:human|worthy|valuable|deserving))\b|\b(?:is|are|was|were) not at all\b|\b(?:the )?(?:very )?opposite of\b|\bmust not (?:make|let)\b`);

/** Counter-speech or negated harm: the rules' hate and violence, and insults, count less (see {@link scoreCategoryRules}). */
export function isCounterSpeech(text: string): boolean {
  return COUNTER_SPEECH.test(text) || NEGATED_HARM.test(text) || NEGATED_JUDGEMENT.test(text);
}

/** Sex education and health, not sexual content. */
const SEX_EDUCATION = re(String.raw`\b(?:talk to|explain|educat\w*|teach(?:ing)? (?:my|our)|puberty|sex ed\w*|consent|doctor|pediatrician|parent(?:s|ing)?|health|healthy|symptoms?|normal|safe sex|contracepti\w*|pregnan\w*|std|sti|therapist|libido)\b`);
const BREAK_IN = re(String.raw`\bbreak(?:ing)? into (?:a |an |the |my |his |her |their |someone'?s? |\w+'s )?(?:\w+ )?(?:house|home|car|bank|vault|apartment|flat|building|safe|store|shop|office|account|email|phone|computer|network|system|server|school|locker|garage|atm)`);
const CRIME_COMMIT = re(String.raw`\b(?:commit|committing|plan|planning|carry out|engage in|set up|run|start|pull off|get into|organi[sz]e)\s+(?:a |an |the |some |my )?(?:\w+ ){0,2}?${CRIME_NOUN}\b`);
const DRUG_GET = re(String.raw`\b${MAKE_OR_GET}\s+(?:(?:a|some|an|the|more|cheap|pure|good|real)\s+|(?:a )?(?:gram|ounce|bag|kilo|pound|line|hit|dose|pills?|tabs?) of\s+){0,2}${DRUG}\b`);
const BENIGN_DRUG = re(String.raw`\b(?:can|bottle|glass|diet|cherry|vanilla|cup|case|pack) of coke\b|\bdiet coke\b|\bcoke (?:zero|can|bottle)\b`);
const PRIVACY = re(String.raw`\b(?:my (?:[\w-]+ ){0,2}?[\w-]+'s?|(?:someone|somebody|other people|people|celebrities|a celebrity|a stranger|strangers|an employee|employees)'s?)\s+(?:[\w-]+ ){0,2}?${PRIVATE_DATA}\b`);

/** A protected group as a word: GROUP_DISCRIMINATION, INVERTED_DISCRIMINATION, GROUP_VIOLENCE and HATE_JOKES hold one wherever they match. */
const GROUP_WORD = re(String.raw`\b${GROUP}\b`);
const GROUP_DISCRIMINATION = re(String.raw`\b${GROUP}\b[^.?!\n]{0,70}?\b${DISCRIMINATION}`);
/** "Why should <group> not be allowed to ...": the modal comes before the group, the denial after it. */
const INVERTED_DISCRIMINATION = re(String.raw`\b(?:should|shouldn't|must|mustn't|ought|deserve|need|needs|have to|has to|is it (?:right|best|better|fair|good)|it is (?:right|best|better|fair)|reasons? why)\b[^.?!\n]{0,30}?\b${GROUP}\b[^.?!\n]{0,12}?\b${DENIAL}`);
const DISCRIMINATION_GROUP = re(String.raw`\b(?:right|best|better|reasons?|justified|a good idea)\b[^.?!\n]{0,30}?\b(?:for|why|that|if)\b[^.?!\n]{0,20}?\b(?:${GROUP}|men|males)\b[^.?!\n]{0,50}?\b(?:less|not|never|no|fewer|barred|denied|banned|overrepresented|make all|decisions|without)\b`);
const GROUP_VIOLENCE = re(String.raw`\b${VIOLENT_VERB}\b(?: (?:all|every|the|these|those))?(?: [\w'-]+){0,1}? ${GROUP}\b`);
const HATE_JOKES = re(String.raw`\b(?:jokes?|memes?|insults?|slurs?|names to call|stereotypes)\s+(?:about|on|for|that (?:make fun of|mock|insult|humiliate)|mocking|making fun of|insulting)\s+(?:[\w-]+\s+){0,2}?${GROUP}\b`);
const ATROCITY_DENIAL = re(String.raw`\b${ATROCITY}\b[^.?!\n]{0,60}?\b(?:never (?:happened|took place|existed|occurred)|(?:a |complete |total )?(?:hoax|fabrication|lie|myth|exaggerat\w+|overstat\w+|good thing|justified|benefits?|success))\b|\b(?:replicate|restore|recreate|repeat|bring back|reintroduce|emulate|copy|reinstate|use)\s+(?:[\w'-]+\s+){0,5}?${ATROCITY}\b|\b(?:was|were)\s+(?:\w+\s+){0,2}?(?:right|justified|morally justified|correct)\s+to\s+(?:kill|attack|invade|murder|bomb|shoot|exterminate)\b|\bwhy (?:was|were) (?:the )?(?:\w+ ){0,3}(?:justified|right|good)\b|\b(?:benefits|upsides?|positives?|good (?:side|parts?)) of (?:\w+ ){0,3}${ATROCITY}|\b(?:overstate|exaggerate|lie about|make up)\s+(?:what|how)\b|\btreat (?:[\w-]+ ){1,2}like (?:under |in |during )?(?:the )?${ATROCITY}`);

/** People named by what they share: "people from X", "tall people", "women", a protected group. */
const GENERAL_GROUP = String.raw`(?:${GROUP}|people (?:from|in|of) (?:the )?[\w-]+(?: [\w-]+)?|(?:[\w-]+ )?people|(?:wo)?men|females|males|girls|boys|guys|ladies|teenagers|millennials|boomers|foreigners|immigrants|the poor|the rich|the elderly|old people|(?:[\w-]+ )?(?:americans|europeans|africans|asians|arabs|christians|muslims|jews|hindus|atheists|liberals|conservatives|democrats|republicans|workers|dropouts|students|drivers|mothers|fathers|parents|girls|guys))`;
/** Traits a stereotype pins on a whole group. */
const NEGATIVE_TRAIT = String.raw`(?:lazy|stupid|dumb|unintelligent|uneducated|ignorant|backward|primitive|savage|dirty|smelly|filthy|violent|aggressive|criminals?|thieves|cheaters?|liars?|dishonest|untrustworthy|unreliable|greedy|cheap|stingy|rude|loud|annoying|emotional|hysterical|weak|inferior|lesser|incompetent|useless|worthless|immoral|promiscuous|mentally ill|crazy|insane|ugly|vain|selfish|arrogant|entitled|misbehaved|jobless|terrorists?|bad (?:at|drivers?|behaviou?r|parents|people)|no (?:sense|taste|manners|morals|respect)|lack(?:s|ing)? (?:\w+ )?(?:etiquette|manners|intelligence|morals|class|taste)|overreact|cannot be trusted|can't be trusted|good for nothing|a burden|a drain)`;
/**
 * A stereotype asked or stated about a whole group: "why are all X so lazy?", "aren't X just vain?", "isn't it true
 * that people from X are rude?", "X are all liars". Written from general knowledge of stereotyping questions.
 */
const STEREOTYPE = re(String.raw`\b(?:why (?:are|do|does|is|can't|don't|won't|must)|aren't|isn't it true that|is it true that|don't you (?:think|agree) that|don't|do)\s+(?:all |most |so many |the )?${GENERAL_GROUP}\b[^.?!\n]{0,40}?\b${NEGATIVE_TRAIT}\b|\b(?:all|every(?: single)?) ${GENERAL_GROUP} (?:are|is)\s+(?:\w+\s+){0,2}?${NEGATIVE_TRAIT}\b|\b${GENERAL_GROUP} (?:are|is) (?:all|always|just|naturally|inherently|born) (?:so )?${NEGATIVE_TRAIT}\b`);
/** The trait word every STEREOTYPE alternative ends in: a cheap test before STEREOTYPE's long one. */
const NEGATIVE_TRAIT_WORD = re(String.raw`\b${NEGATIVE_TRAIT}\b`);

/** Asking for gore or explicit detail: "describe a brutal murder scene", "explain sexual fetishes in detail". */
const GRAPHIC_REQUEST = re(String.raw`\b(?:describe|depict|write|narrate|tell me about|talk about|explain|show me|give me)\s+(?:[\w'-]+\s+){0,4}?(?:graphic(?:ally)?|gory|gruesome|brutal|horrific|grisly|explicit(?:ly)?|in (?:graphic|vivid|gory|explicit) detail)\b|\b(?:describe|depict|explain|tell me about|talk about|list|what are)\s+(?:[\w'-]+\s+){0,3}?(?:sexual (?:positions?|fetish\w*|experiences?|fantas\w+|acts?)|adult (?:toys|content|videos|films|movies)|explicit (?:adult )?content|erotic \w+|sex toys|your sex life)\b`);
const GRAPHIC_SEXUAL = re(String.raw`\b(?:sex\w*|adult|erotic|porn\w*|nude|naked|fetish\w*|explicit (?:adult )?content)\b`);

const SEXUAL = re(String.raw`\b${SEXUAL_TERM}\b`);
const CHILD_SEXUAL = re(String.raw`\b(?:child porn\w*|cp links?|csam|kiddie porn|lolicon|shotacon)\b|\b${MINOR}\b[^.?!\n]{0,60}?\b(?:${SEXUAL_TERM}|sex|sexual\w*|molest\w*|groom\w*|touch(?:ed|ing)?|on the menu|naked|nude)\b|\b(?:sex|sexual\w*|molest\w*|groom\w*|fuck\w*|touch(?:ing)?|naked|nude)\b[^.?!\n]{0,40}?\b${MINOR}\b|\b(?:satisfy|act on|indulge|fulfil+)\s+(?:my\s+)?(?:pedophil\w*|paedophil\w*)|\bpedo(?:phile)?s?\b`);
/** Something every CHILD_SEXUAL alternative needs (a minor, an abuse-material term, "pedo"): a cheap test before it. */
const CHILD_SEXUAL_GATE = re(String.raw`\b${MINOR}\b|\b(?:child porn|cp links?|csam|kiddie porn|lolicon|shotacon|pedo)|p(?:ae|e)dophil`);
const RAPE_INTENT = re(String.raw`\b(?:rape|raping|sexually assault|molest|grope|drug and rape)\b`);

/** Multiplies intent-driven scores down for fiction and factual questions. */
function damping(text: string, intent: boolean): number {
  let factor = 1;
  if (FICTION.test(text)) factor *= 0.35;
  if (!intent && FACTUAL.test(text)) factor *= 0.45;
  return factor;
}

/** Raises `current` to `value` when higher. */
function atLeast(current: number, value: number): number {
  return value > current ? value : current;
}

/**
 * Scores the five rule categories of a lower-case, NFKC-normalised text.
 * Intent ("how do I", "where can I buy", "I want to") lifts a harmful act against a person to a high score;
 * without intent the same act stays near the threshold, and fiction or a factual question lowers it.
 */
export function scoreCategoryRules(text: string): RuleScores {
  // The context tests (intent, damping, benign and lawful contexts) run only when a rule that reads them fires.
  let intentFound: boolean | undefined;
  let dampFactor: number | undefined;
  const intent = (): boolean => (intentFound ??= HAS_INTENT.test(text));
  const damp = (): number => (dampFactor ??= damping(text, intent()));
  const act = (withIntent: number, without: number): number => (intent() ? withIntent : without) * damp();
  let violence = 0;
  let weapons = 0;
  let hate = 0;
  let crime = 0;
  let sexual = 0;

  const benignViolence = (): number => (BENIGN_VIOLENCE.test(text) ? 0.3 : 1);
  // VIOLENCE_TARGET, TARGET_THEN_VERB, THREAT and GROUP_VIOLENCE each need a violent verb (VIOLENT_VERB_WORD holds wherever they match).
  const violentVerb = VIOLENT_VERB_WORD.test(text);
  const bodyVerb = violentVerb || SAW_WORD.test(text);
  if ((violentVerb && (VIOLENCE_TARGET.test(text) || TARGET_THEN_VERB.test(text))) || (bodyVerb && VIOLENCE_BODY.test(text)) || TARGET_INSIDE.test(text)) violence = atLeast(violence, act(0.88, 0.5) * benignViolence());
  if (VIOLENT_NOUN_ACT.test(text)) violence = atLeast(violence, act(0.85, 0.6));
  if (SELF_HARM_RE.test(text)) violence = atLeast(violence, act(0.88, 0.6));
  if (BULLET.test(text)) violence = atLeast(violence, 0.8 * (FICTION.test(text) ? 0.5 : 1));
  if (violentVerb && THREAT.test(text)) violence = atLeast(violence, 0.8 * benignViolence() * (FICTION.test(text) ? 0.5 : 1));
  if (DEATH_WISH.test(text)) violence = atLeast(violence, 0.75 * (FICTION.test(text) ? 0.5 : 1));
  if (PROPERTY_HARM.test(text)) {
    violence = atLeast(violence, act(0.75, 0.45));
    crime = atLeast(crime, act(0.7, 0.4));
  }

  // Every weapon rule names a weapon (WEAPON_WORD holds wherever one of them matches): one test decides whether they run.
  const weaponNamed = WEAPON_WORD.test(text);
  if (weaponNamed && WEAPON_MAKE.test(text)) weapons = atLeast(weapons, act(0.85, 0.5) * (LAWFUL_WEAPON.test(text) ? 0.5 : 1));
  if (weaponNamed && WEAPON_RECIPE.test(text)) weapons = atLeast(weapons, 0.85 * (FICTION.test(text) ? 0.35 : 1));
  if (weaponNamed && WEAPON_AT.test(text)) {
    weapons = atLeast(weapons, act(0.85, 0.6));
    violence = atLeast(violence, act(0.8, 0.5));
  }
  if (weapons === 0 && weaponNamed) weapons = 0.15 * damp();
  if (violence >= 0.5 && weaponNamed) weapons = atLeast(weapons, violence * 0.9);

  if ((CRIME_ACT.test(text) || BREAK_IN.test(text)) && !BENIGN_CRIME_IDIOM.test(text)) crime = atLeast(crime, act(0.82, 0.4));
  if (CRIME_EXTRA.test(text)) crime = atLeast(crime, act(0.85, 0.6));
  if (CRIME_COMMIT.test(text)) crime = atLeast(crime, act(0.88, 0.6));
  if (DRUG_GET.test(text) && !BENIGN_DRUG.test(text)) crime = atLeast(crime, act(0.8, 0.4));
  if (PRIVACY.test(text)) crime = atLeast(crime, intent() ? 0.75 : 0.6);

  // The group rules but DISCRIMINATION_GROUP (which also reads "men") each need a group named (GROUP_WORD holds wherever they match).
  const groupNamed = GROUP_WORD.test(text);
  if ((groupNamed && (GROUP_DISCRIMINATION.test(text) || INVERTED_DISCRIMINATION.test(text))) || DISCRIMINATION_GROUP.test(text)) hate = atLeast(hate, 0.8 * (FICTION.test(text) ? 0.5 : 1));
  if (violentVerb && groupNamed && GROUP_VIOLENCE.test(text)) {
    hate = atLeast(hate, act(0.9, 0.7));
    violence = atLeast(violence, act(0.88, 0.6));
  }
  if (ATROCITY_DENIAL.test(text)) hate = atLeast(hate, 0.8);
  if (groupNamed && HATE_JOKES.test(text)) hate = atLeast(hate, 0.75);
  if (NEGATIVE_TRAIT_WORD.test(text) && STEREOTYPE.test(text)) hate = atLeast(hate, 0.7);

  if (CHILD_SEXUAL_GATE.test(text) && CHILD_SEXUAL.test(text)) sexual = atLeast(sexual, FACTUAL.test(text) && !intent() ? 0.4 : 0.92);
  if (GRAPHIC_REQUEST.test(text)) {
    if (GRAPHIC_SEXUAL.test(text)) sexual = atLeast(sexual, 0.65 * (FICTION.test(text) ? 0.5 : 1));
    else violence = atLeast(violence, 0.65 * (FICTION.test(text) ? 0.5 : 1));
  }
  if (SEXUAL.test(text)) sexual = atLeast(sexual, 0.6 * (FACTUAL.test(text) && !intent() ? 0.5 : 1));
  if (RAPE_INTENT.test(text)) {
    sexual = atLeast(sexual, act(0.9, 0.45));
    violence = atLeast(violence, act(0.88, 0.45));
  }
  if (crime > 0 && PROTECTIVE.test(text)) crime *= 0.5;
  if ((hate > 0 || violence > 0) && isCounterSpeech(text)) {
    hate *= 0.5;
    violence *= 0.5;
  }
  if (sexual > 0 && SEX_EDUCATION.test(text)) sexual *= 0.4;
  return { violence, weapons, hate_speech: hate, crime, sexual };
}
