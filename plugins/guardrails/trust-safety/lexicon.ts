// Word lists of the trust-safety rules, as regular-expression fragments over lower-case text.

/** Joins words into a non-capturing alternation. */
function anyOf(words: readonly string[]): string {
  return `(?:${words.join('|')})`;
}

/** Asking how to do something, or saying one means to: "how do I", "best way to", "where can I buy", "I want to". */
export const INTENT = anyOf([
  String.raw`how (?:do|can|could|would|should|might|will|does|shall) (?:i|we|one|you|someone|u|a person|people)\b`,
  String.raw`how to\b`,
  String.raw`(?:best|easiest|quickest|fastest|simplest|safest|cheapest|good|effective|perfect|most effective|surest|right) (?:way|method|place|strategy|plan|tool|time|technique|approach|poison|weapon)s?\b`,
  String.raw`ways? (?:of|to|for)\b`,
  String.raw`steps? (?:to|for|should|do|i)\b`,
  String.raw`what (?:do|should|can|would|could) (?:i|we) (?:need|take|use|do|buy|get|mix)\b`,
  String.raw`what (?:can|could|should) i (?:take|use|do) to\b`,
  String.raw`where (?:can|could|do|should|would|might) (?:i|we|one|you) (?:buy|get|find|purchase|order|obtain|score|hire|satisfy|sell|go to|euthanize)\b`,
  String.raw`(?:teach|show|tell|help|instruct) (?:me|us) (?:how|to)\b`,
  String.raw`(?:instructions|guide|tutorial|tips|recipe|plan) (?:for|on|to)\b`,
  String.raw`(?:i|we) (?:want|need|wanna|intend|plan|am going|'m going|am gonna|'m gonna|will|'ll|would like|am planning|'m planning|am about) to\b`,
  String.raw`should i\b`, String.raw`let's\b`, String.raw`help me\b`, String.raw`give me (?:a |some )?(?:way|method|recipe|instructions|tips|steps)`,
  String.raw`can you (?:tell|show|help|explain how|teach|give)\b`, String.raw`plan (?:and execute )?(?:a|an|to|my|the)\b`,
  String.raw`(?:process|procedure|methods?|techniques?|strategy|recipe) (?:for|of|to)\b`,
  String.raw`(?:can|could|should|shall) (?:i|we) (?:[\w'-]+ ){0,2}?(?:use|kill|hurt|harm|attack|get|buy|make|steal|take|do|put|add|mix|give)\b`,
  String.raw`walk (?:me|us) through\b`, String.raw`explain how to\b`, String.raw`give me\b`,
  String.raw`(?:write|create|generate|draft|code|make|build) (?:me |us )?(?:a|an|some|the)\b`,
  String.raw`(?:i'?ll|i will|i'm gonna|im gonna|i am gonna|i'm going to|i am going to|we'll|gonna)\b`,
]);

/** People as targets of harm (as opposed to things, processes and game characters). */
export const PERSON = anyOf([
  String.raw`someone|somebody|anyone|anybody|everyone|everybody|an? (?:[\w-]+ )?(?:person|prisoner|victim|hostage|inmate|worker|customer|passenger|pedestrian|cyclist|driver|jogger|old (?:man|lady|woman)|security guard|human|man|woman|girl|boy|child|kid|baby|toddler|teenager|minor|cop|police ?(?:officer|man)|politician|senator|judge|guard|nurse|doctor|student|teacher|stranger|human being|neighbou?r|journalist)`,
  String.raw`people|persons|humans|humanity|human beings|men|women|children|kids|babies|toddlers|students|classmates|civilians|strangers|crowds?|protesters|refugees|immigrants|migrants|a (?:village|population|group of people|family)|an entire (?:city|village|town|family|population)|(?:my|his|her|their|our|the) (?:entire |whole )?(?:family|class|school|village|town|neighbou?rhood)`,
  String.raw`(?:my|his|her|their|our|your|the) (?:[\w-]+ )?(?:wife|husband|spouse|girlfriend|boyfriend|partner|ex|ex-?wife|ex-?husband|ex-?girlfriend|ex-?boyfriend|ex (?:wife|husband|girlfriend|boyfriend|partner)|mother|mom|mum|father|dad|brother|sister|son|daughter|parents?|grand(?:mother|father|parents?|ma|pa)|rich grandparents?|family|friend|friend's \w+|best friend|neighbou?r|boss|coworker|co-worker|colleague|teacher|classmates?|roommate|landlord|tenant|date|tinder date|baby|child|kid|kids|children|uncle|aunt|cousin|enemy|enemies|rival|bully|stepdad|stepmom|employee|employer|manager)`,
  String.raw`(?:the )?(?:president|prime minister|governor|mayor|police|cops|a public figure|politicians|(?:a |the )?(?:local )?(?:politician|senator|congressman|congresswoman))`,
  String.raw`him|her|them|myself|yourself|himself|herself|themselves`,
]);

/** Body parts: "someone's skull", "a human spine". */
export const BODY_PART = String.raw`(?:skull|head|face|neck|throat|spine|sternum|ribs?|legs?|arms?|kneecaps?|kidneys?|artery|arteries|wrists?|veins?|heart|eyes?|teeth|jaw|nose|fingers?|body|bodies|corpses?)`;

/** A dead body as the object of an act ("chop up a dead body"). */
export const CORPSE = String.raw`(?:(?:a|the|his|her|their|my) )?(?:dead )?(?:human )?(?:body|bodies|corpses?)`;

/** Violent acts against a person. */
export const VIOLENT_VERB = anyOf([
  String.raw`kill(?:s|ed|ing)?|murder(?:s|ed|ing)?|stab(?:s|bed|bing)?|shoot(?:s|ing)?|shot|strangl(?:e|es|ed|ing)|chok(?:e|es|ed|ing)|throttl(?:e|es|ed|ing)|suffocat(?:e|ed|ing)|smother(?:ing)?|drown(?:s|ed|ing)?`,
  String.raw`beat(?:s|ing)? up|beat(?:s|ing)?|hit(?:s|ting)?|punch(?:es|ed|ing)?|kick(?:s|ed|ing)?|hurt(?:s|ing)?|harm(?:s|ed|ing)?|injur(?:e|es|ed|ing)|maim(?:s|ed|ing)?|tortur(?:e|es|ed|ing)|poison(?:s|ed|ing)?|behead(?:s|ed|ing)?|decapitat(?:e|ed|ing)`,
  String.raw`slaughter(?:s|ed|ing)?|massacr(?:e|es|ed|ing)|execut(?:e|es|ed|ing)|assassinat(?:e|es|ed|ing)|kidnap(?:s|ped|ping)?|abduct(?:s|ed|ing)?|attack(?:s|ed|ing)?|assault(?:s|ed|ing)?|rap(?:e|es|ed|ing)|captur(?:e|ing)|snatch(?:ing)?|lur(?:e|ing)|slay(?:ing)?|rip(?:ping)? off`,
  String.raw`smash(?:es|ed|ing)?|crush(?:es|ed|ing)?|bash(?:es|ed|ing)?|break(?:s|ing)?|shatter(?:s|ed|ing)?|burn(?:s|ed|ing)?|blow(?:s|ing)? up|bomb(?:s|ed|ing)?|set(?:ting)? fire to|slit(?:ting)?|slash(?:es|ed|ing)?|gut(?:s|ted|ting)?|butcher(?:s|ed|ing)?|chop(?:s|ped|ping)? up|dismember(?:s|ed|ing)?|hammer(?:ing)?|carve|sever|pierce`,
  String.raw`eliminat(?:e|es|ed|ing)|terminat(?:e|es|ed|ing)|liquidat(?:e|es|ed|ing)|get rid of|do away with|take out|exterminat(?:e|es|ed|ing)|eradicat(?:e|es|ed|ing)|wipe out|wiping out|annihilat(?:e|es|ed|ing)|decimat(?:e|es|ed|ing)|obliterat(?:e|es|ed|ing)|dispose of|snip(?:e|es|ed|ing)|headshot|overpower(?:s|ed|ing)?|tackl(?:e|es|ed|ing)|hunt(?:s|ed|ing)? down|euthaniz(?:e|ed|ing)|starv(?:e|ed|ing)|electrocut(?:e|ed|ing)|run over|ram|hang|hanging|end the life of|terminate the life of|cut (?:off|up)|crack open`,
]);

/** Violent nouns that mean harm on their own. */
export const VIOLENT_NOUN = String.raw`(?:murder|massacre|assassination|genocide|mass shooting|school shooting|terrorist attack|terrorism|arson|armed robbery|violent assault|suicide|stabbing|killing spree|ethnic cleansing|bloodbath|hostage|execution|lynching|torture|homicide|manslaughter|kidnapping|explosion|(?:[\w-]+'s )?death|massacres|genocides|shootings?|bombings?)`;

/** Self-harm phrasing. */
export const SELF_HARM = anyOf([
  String.raw`(?:kill|hang|drown|cut|harm|hurt|shoot|poison|starve|burn|stab|suffocate) (?:myself|yourself|themselves|himself|herself)`,
  String.raw`(?:pills|tablets|painkillers|insulin|bleach)\b[^.?!]{0,30}\b(?:end (?:my|it)|die|kill)`,
  String.raw`commit(?:ting)? suicide|end(?:ing)? (?:my|his|her|their|it all|your) (?:own )?(?:life|lives)|take my (?:own )?life|(?:die|go out|end it) like|overdose on|(?:sever|slit|cut|pierce) my (?:own )?(?:\w+ )?(?:artery|arteries|wrists?|veins?|throat|carotid)|carve (?:a |an )?\w+ into my|slit my|want to die|better off dead`,
]);

/** Weapons and weapon-grade materials. */
export const WEAPON = String.raw`(?:bombs?|pipe ?bombs?|nail bombs?|dirty bombs?|car bombs?|explosives?|explosive devices?|ieds?|grenades?|molotov(?: cocktails?)?|napalm|thermite|detonators?|c-?4|semtex|tnt|dynamite|guns?|firearms?|rifles?|pistols?|handguns?|shotguns?|ar-?15s?|ak-?47s?|assault rifles?|machine guns?|ghost guns?|silencers?|suppressors?|ammo|ammunition|bullets?|nerve agents?|sarin|vx gas|ricin|anthrax|bio-?weapons?|biological weapons?|chemical weapons?|poison gas|mustard gas|chlorine gas|nukes?|nuclear (?:bombs?|weapons?)|weapons?|knives|knife|machetes?|crossbows?|tasers?|stun guns?|brass knuckles|flamethrowers?)`;

/** Making, getting or using a weapon or drug. */
export const MAKE_OR_GET = String.raw`(?:make|making|build|building|assemble|assembling|create|creating|construct|constructing|3d[- ]print|print|manufacture|manufacturing|get|getting|buy|buying|acquire|obtain|purchase|order|smuggle|synthesi[sz]e|synthesi[sz]ing|cook|cooking|mix|brew|grow|growing|produce|sell|selling|deal|dealing|convert|modify|hide|conceal|sneak|carry|detonate|plant|use|set off|explode|exploding|blow up)`;

/** Illegal drugs. */
export const DRUG = String.raw`(?:cocaine|coke|crack(?: cocaine)?|meth|methamphetamine|crystal meth|heroin|lsd|acid tabs|mdma|ecstasy(?: pills)?|molly|fentanyl|weed|marijuana|marihuana|cannabis|ketamine|pcp|opium|shrooms|magic mushrooms|dmt|ghb|roofies|rohypnol|oxy(?:contin)?|xanax|drugs)`;

/** Crimes as verbs ("steal", "break into") and nouns ("fraud", "identity theft"). */
export const CRIME_VERB = String.raw`(?:steal(?:ing)?|stole|rob(?:bing)?|shoplift(?:ing)?|burgl(?:e|ing)|break(?:ing)? into|hotwir(?:e|ing)|pick(?:ing)? (?:a |the )?locks?|launder(?:ing)?|counterfeit(?:ing)?|forg(?:e|ing)|embezzl(?:e|ing)|evad(?:e|ing) (?:taxes|tax|the police|police|arrest)|smuggl(?:e|ing)|traffic(?:king)?|brib(?:e|ing)|blackmail(?:ing)?|extort(?:ing)?|scam(?:ming)?|defraud(?:ing)?|hack(?:ing)? into|ddos(?:ing)?|phish(?:ing)?|stalk(?:ing)?|dox(?:x?ing)?|vandali[sz](?:e|ing)|slash(?:ing)? (?:\w+ ){0,2}tires|disabl(?:e|ing) (?:the |an? )?(?:alarm|security|cameras?)|rig(?:ging)? (?:an? |the )?elections?|poach(?:ing)?|pirat(?:e|ing)|spik(?:e|ing) (?:a |her |his |their |someone's )?drinks?|drug (?:her|him|someone|a girl)|get away with|without (?:getting|being) caught|avoid (?:getting caught|the police|detection|arrest))`;
export const CRIME_NOUN = String.raw`(?:fraud|identity theft|tax evasion|money laundering|arson|treason|robbery|armed robbery|burglary|theft|insurance fraud|bank fraud|credit card fraud|wire fraud|embezzlement|extortion|blackmail|bribery|human trafficking|drug trafficking|sex trafficking|trafficking operation|kidnapping|a crime|crimes|ransomware|malware|a heist|heist|terrorism|a murder|murder|a massacre|an assassination|assassination|violent assault|assault|rape|counterfeit money|fake ids?|forged documents|cyber ?attacks?)`;

/** Private data of a person that is not the asker's to have. */
export const PRIVATE_DATA = String.raw`(?:social security number|ssn|passport number|driver'?s licen[cs]e number|credit card (?:details|number|info)|bank (?:account )?(?:details|number|info|password)|(?:\w+ )?password|pin(?: code)?|login|log-in|credentials|medical (?:records|history)|mental health (?:history|records)|criminal (?:history|record)|tax records|home address|address|(?:mobile |cell )?phone number|private email(?: address)?|email password|browsing history|immigration status|sexual orientation|religious beliefs|political affiliation|marital status|date of birth|birth certificate|salary|income|how much money \w+ earns?)`;

/** Groups protected from hate speech. Colour words count only with a people noun ("black olives" is not a group). */
export const GROUP = anyOf([
  String.raw`(?:black|white|brown|asian|chinese|japanese|korean|indian|arab|african|mexican|latino|latina|latinx|hispanic|jewish|muslim|christian|catholic|hindu|buddhist|sikh|atheist|gay|lesbian|bisexual|trans|transgender|non-?binary|queer|asexual|intersex|disabled|deaf|blind|autistic|elderly|old|indigenous|native|aboriginal|immigrant|migrant|roma|romani|poor|homeless|divorced|pregnant|single|fat|obese|mentally ill) (?:people|persons|men|women|folks|kids|children|americans|community|communities|individuals|employees|workers|voters|students|immigrants)`,
  String.raw`blacks|whites|jews|muslims|christians|catholics|hindus|buddhists|sikhs|atheists|gays|lesbians|bisexuals|trans women|trans men|transgenders|queers|asexuals|immigrants|migrants|refugees|illegals|asians|latinos|latinas|hispanics|mexicans|arabs|africans|indians|chinese|roma|gypsies|women|females|girls|wives|disabled|the disabled|elderly|the elderly|people on (?:benefits|welfare)|welfare recipients|homeless|the poor|indigenous|natives|aborigines|pregnant women|single mothers|lgbtq?\+?|lgbt community`,
]);

/** What hateful claims deny or assert about a group. */
export const DISCRIMINATION = anyOf([
  String.raw`(?:should|must|ought to|need to|deserve to|have to)(?: \w+)? (?:not |never )?(?:be )?(?:allowed|permitted|barred|banned|denied|kicked|excluded|removed|deported|segregated|sterili[sz]ed|locked up|sent back|exterminated|eliminated|killed|shot|gassed|executed|discriminated|treated as|kept out|stripped|forbidden|prevented|punished|enslaved|go back|stay (?:at home|in the kitchen)|earn less|be paid less|be shown|have (?:their|the) \w+ make decisions|go through extra|make all)`,
  String.raw`(?:should|must|ought to)(?: \w+)? (?:not|never) (?:have|get|be given|hold|run|vote|marry|get married|work|study|enter|practi[cs]e|join|sit|teach|adopt|own|access|express|receive|live|be)`,
  String.raw`(?:right|best|better|good|a good idea|justified|fair)(?: \w+){0,3}? (?:for|that|if|to)(?: \w+){0,4}? (?:not|never|less|be barred|be denied|took away|take away|men make|white people)`,
  String.raw`(?:reasons? why|why) (?:it is right|\w+ (?:should|shouldn't|must|can't|cannot))`,
  String.raw`(?:are|is) (?:so much |much |all |just |nothing but |born |naturally |genetically )?(?:[\w-]+ )?(?:inferior|subhuman|weaker|dumber|stupider|less intelligent|less capable|worse|animals|vermin|rats|cockroaches|parasites|savages|a disease|a plague|trash|scum|filth|criminals|terrorists|rapists|evil|disgusting|not human|not real people|mentally ill|freaks|perverts|degenerates|abominations|monsters|a threat|dangerous|dirty|lazy|thieves|thugs|invaders|a cancer|a virus|less than human|the enemy|our enemies|enemies)`,
  String.raw`(?:are|is) too (?:[\w-]+ ){1,2}to (?:be (?:allowed|trusted|given)|vote|lead|work|drive|serve|rule|govern|hold)`,
  String.raw`(?:shouldn't|should not|don't deserve|do not deserve|mustn't|can't be trusted|cannot be trusted)`,
  String.raw`(?:secretly )?(?:control|run|own|rule) (?:the |all the |our )?(?:banks|media|world|government|hollywood|money|economy)`,
  String.raw`(?:weaker|dumber|inferior|less intelligent|worse) than (?:men|women|whites|white people|us)`,
  String.raw`(?:voting rights|right to vote|equal rights|access to healthcare|visas?|higher education|public office|political parties|positions? in|security checks|unemployment benefits)`,
]);

/** What a hateful question denies a group, after the group: "(should immigrants) not be allowed to ...". */
export const DENIAL = String.raw`(?:(?:not |never )?(?:be )?(?:allowed|permitted|barred|banned|denied|kicked|excluded|removed|deported|segregated|sterili[sz]ed|locked up|sent back|exterminated|eliminated|killed|shot|gassed|executed|discriminated|kept out|stripped|forbidden|prevented|punished|enslaved|fired)|not (?:have|get|be given|hold|run|vote|marry|get married|work|study|enter|practi[cs]e|join|sit|teach|adopt|own|access|express|receive|live|be shown|be admitted)|go through extra|go back|earn less|be paid less|have (?:their|the|other) (?:\w+ )?make|have fewer)`;

/** Historical atrocities, for denial and glorification rules. */
export const ATROCITY = String.raw`(?:holocaust|shoah|genocides?|massacres?|slavery|slave trade|9\/11(?: attacks)?|ethnic cleansing|apartheid|jim crow|concentration camps?|auschwitz|gulags?|khmer rouge|trail of tears|taliban rule|pinochet|hitler|nazis?|isis|kkk|lynching|atomic bomb(?:s|ing)?|pulse nightclub shooting|church shooting|columbine|assassination)`;

/** Explicit sexual terms beyond the obscenity dataset (which the profanity check reads). */
export const SEXUAL_TERM = String.raw`(?:porn(?:o|ography)?|nudes?|naked (?:pics?|photos?|pictures?|videos?)|sex ?tape|nsfw|erotic(?:a)?|horny|blow ?jobs?|hand ?jobs?|orgasms?|masturbat\w*|dildos?|vibrators?|cum(?:shot)?|jizz|tits|titties|boobs|pussy|cock|dick pics?|anal sex|oral sex|threesome|orgy|gangbang|fetish|bdsm|onlyfans|hentai|stripper|strip club|escort service|hookers?|prostitutes?|sexting|sext|sexual(?:ly)? (?:explicit|favou?rs?|acts?|positions?|fantas(?:y|ies))|sex scenes?|(?:explicit|graphic|steamy|dirty|raunchy|x-rated) (?:sex |sexual |erotic )?(?:scenes?|stor(?:y|ies)|content|details?|pictures?|photos?|videos?)|fuckable|doable|have sex|having sex|sleep with|make love to|get laid|turn(?:s|ed)? me on|sexy|lingerie|genitals?)`;

/** Minors, for the child-safety rule. */
export const MINOR = String.raw`(?:child(?:ren)?|kids?|minors?|underage|under-?age|teen(?:ager)?s?|(?:1[0-7]|[1-9])[- ]?(?:year[- ]?olds?|yo|yrs? old)|little (?:girls?|boys?)|schoolgirls?|schoolboys?|preteens?|toddlers?)`;

/** Insults that are abuse in any sentence. */
export const INSULT = String.raw`(?:idiots?|idiotic|morons?|moronic|imbeciles?|cretins?|stupid|dumb(?:ass(?:es)?)?|dumbest|retards?|retarded|[a-z]+tard(?:s|ed)?|losers?|scumbags?|scum|lowlifes?|douche(?:bags?)?|jerks?|pedos?|pedophiles?|paedophiles?|sheeple|brainless|dimwits?|halfwits?|numbskulls?|boneheads?|airheads?|doofus|buffoons?|piece of (?:shit|crap|garbage|trash|work|chit|sh\W?t)|pos|stfu|gtfo|asshats?|ass ?holes?|a-?holes?|jackass(?:es)?|bimbos?|skanks?|hoes?|thots?|cucks?|simps?|dipshits?|shitheads?|dickheads?|fuckheads?|fuckwits?|twats?|wankers?|tossers?|pricks?|bastards?|sluts?|whores?|bitch(?:es|y)?|nutjobs?|lunatics?|psychos?|sickos?|degenerates?|deplorables?|libtards?|demonrats?|repukes?|repuklicans?|dumbocrats?|dumocrats?)`;

/** Words that insult when said of someone (extended 2026-11-25 from a general list of English insults, not from dev rows) ("he is a pig", "you clown") but are ordinary elsewhere ("rats in my attic"). */
export const WEAK_INSULT = String.raw`(?:trash|garbage|pathetic|disgusting|disgrace(?:ful)?|hypocrit(?:e|es|ical)|liars?|lying|clowns?|pigs?|swine|rats?|snakes?|traitors?|cowards?|creeps?|creepy|freaks?|perverts?|nazis?|fascists?|commies?|sheep|snowflakes?|karens?|parasites?|vermin|filth(?:y)?|worthless|useless|clueless|ignorant|incompetent|senile|demented|fools?|foolish|ugliest|grossest|disgrace|shame(?:ful|less)?|soulless|corrupt|criminals?|thugs?|animals?|monsters?|devil|satan|dummies|dummy|maggots?|leech(?:es)?|weasels?|frauds?|trolls?|nitwits?|simpletons?|crybab(?:y|ies)|bootlickers?|sellouts?|grifters?|con artists?|dirtbags?|sleazebags?|slimeballs?|blowhards?|windbags?|nutcases?|nut jobs?|weirdos?|oafs?|dunces?|twits?|numpty|numpties|muppets?|hags?|waste of (?:space|oxygen|air|skin)|spineless|gutless|brain-?dead|two-faced|despicable|contemptible|loathsome|gormless|witless|insufferable|deranged|delusional|unhinged|repulsive|vile)`;
