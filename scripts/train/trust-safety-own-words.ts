// Word lists of the hand-written trust-safety rows: insults, targets, fates, politics and harmless counterparts (general knowledge, no dev-set text).

/** Evaluative adjectives that insult a person (a general list of English insults, no swear words). */
export const INSULT_ADJECTIVES = [
  'pathetic', 'worthless', 'useless', 'brainless', 'spineless', 'gutless', 'clueless', 'ignorant', 'stupid', 'dumb', 'ugly', 'disgusting',
  'vile', 'repulsive', 'miserable', 'lazy', 'greedy', 'delusional', 'deranged', 'insufferable', 'smug', 'arrogant', 'incompetent',
  'hypocritical', 'braindead', 'two-faced', 'whiny', 'shrill', 'hysterical', 'unhinged', 'feeble-minded', 'half-witted', 'dim-witted',
  'dense', 'thick', 'sad', 'spiteful', 'nasty', 'gross', 'creepy', 'slimy', 'sleazy', 'loathsome', 'contemptible', 'despicable',
  'disgraceful', 'shameless', 'gormless', 'witless', 'mindless', 'senile', 'crazy', 'psychotic', 'toxic', 'evil', 'filthy', 'revolting',
];
/** Nouns that insult a person. */
export const INSULT_NOUNS = [
  'idiot', 'moron', 'fool', 'clown', 'loser', 'failure', 'coward', 'creep', 'pig', 'rat', 'snake', 'worm', 'maggot', 'leech', 'parasite',
  'cockroach', 'donkey', 'weasel', 'hypocrite', 'liar', 'fraud', 'joke', 'disgrace', 'embarrassment', 'waste of space', 'waste of oxygen',
  'troll', 'halfwit', 'dimwit', 'nitwit', 'simpleton', 'buffoon', 'imbecile', 'nobody', 'has-been', 'crybaby', 'bootlicker', 'sellout',
  'grifter', 'con artist', 'lowlife', 'degenerate', 'scumbag', 'dirtbag', 'sleazebag', 'slimeball', 'blowhard', 'windbag', 'bigot', 'thug',
  'psycho', 'lunatic', 'nutcase', 'weirdo', 'freak', 'oaf', 'dunce', 'twit', 'clod', 'numpty', 'muppet', 'sheep', 'puppet', 'hag', 'cow',
  'old bag', 'gremlin', 'goblin', 'toad', 'slug', 'vulture', 'hyena', 'monkey', 'animal', 'vermin', 'trash', 'garbage', 'zero',
];
/** Public figures and people an insult is aimed at (generic roles, no real names). */
export const TARGETS = [
  'the mayor', 'my boss', 'that senator', 'the referee', 'your president', 'this reporter', 'the governor', 'that streamer', 'the coach',
  'my landlord', 'our neighbour', 'the new manager', 'that influencer', 'this guy', 'that woman', 'the host', 'the minister', 'your husband',
  'his girlfriend', 'the author', 'this commenter', 'the OP', 'that actor', 'the teacher', 'the CEO', 'the umpire', 'the candidate',
];
/** Things that can be judged harshly without abusing anyone. */
export const THINGS = [
  'this movie', 'the update', 'the traffic this morning', 'the weather', 'this printer', 'the new logo', 'the sequel', 'my phone battery',
  'the wifi here', 'this recipe', 'the last season', 'the airline food', 'the app', 'this keyboard', 'the plot twist', 'the parking situation',
  'the queue at the post office', 'this spreadsheet', 'the referee decision', 'the soundtrack', 'my first draft', 'the hotel room', 'the coffee',
];
/** Harsh verdicts on things. */
export const BAD_ABOUT_THINGS = ['pathetic', 'useless', 'awful', 'terrible', 'disgusting', 'a joke', 'garbage', 'trash', 'a disaster', 'horrible', 'stupid', 'ridiculous', 'the worst', 'a nightmare'];


/** Fates wished on a person (not instructions: the wish itself is the abuse). */
export const BAD_FATES = [
  'gets hit by a bus', 'chokes on their breakfast', 'dies alone', 'rots in a cell forever', 'never wakes up', 'burns in hell', 'drops dead',
  'gets what is coming to them', 'catches something nasty and suffers', 'loses everything', 'ends up in a ditch', 'gets beaten up on the way home',
  'falls down the stairs', 'goes bankrupt and starves', 'suffers for the rest of their life',
];
/** Good wishes for a person: the harmless twins of the fates above. */
export const GOOD_FATES = [
  'gets well soon', 'wins the election', 'has a great holiday', 'gets the promotion', 'recovers quickly', 'enjoys retirement', 'finds a new job soon',
  'makes it to the final', 'gets some rest this weekend', 'has a lovely birthday', 'passes the exam', 'sells the house quickly', 'feels better tomorrow',
];
/** Insulting nicknames for political opponents (general knowledge of online political abuse). */
export const POLITICAL_INSULTS = [
  'libtards', 'leftards', 'conservatards', 'rethuglicans', 'repugnicans', 'dumbocrats', 'demonrats', 'magats', 'snowflakes', 'sheeple', 'commies',
  'feminazis', 'wokies', 'lefty loons', 'wingnuts', 'right-wing nutjobs', 'cultists', 'treehuggers', 'gun nuts', 'bible thumpers', 'leftist vermin',
];
/** Political groups and office holders named plainly. */
export const POLITICAL_GROUPS = [
  'Democrats', 'Republicans', 'conservatives', 'liberals', 'progressives', 'Labour voters', 'the Tories', 'the Greens', 'libertarians', 'centrists',
  'the senator', 'the president', 'the governor', 'the opposition', 'the prime minister', 'the city council', 'both parties', 'voters in Ohio',
];
/** Plain statements of what a political group did or wants. */
export const NEUTRAL_POLITICS = [
  'want lower taxes', 'proposed a new healthcare bill', 'lost the vote in the senate', 'are campaigning in the suburbs this week',
  'disagree about immigration policy', 'won the special election', 'should focus more on housing costs', 'held a rally downtown',
  'changed their position on energy', 'released a budget plan today', 'are polling ahead in the south', 'debated school funding last night',
];
/** Policy topics, named in criticism and in abuse alike. */
export const POLICY_TOPICS = ['the budget', 'tariffs', 'school funding', 'the pension reform', 'zoning', 'healthcare', 'the energy plan', 'policing', 'student loans', 'immigration'];
/** Things a person is likened to when they are dehumanised. */
export const VERMIN = ['a rat', 'a cockroach', 'vermin', 'a parasite', 'a pig', 'a rabid dog', 'a leech', 'subhuman', 'filth', 'a tapeworm', 'pond scum', 'a plague'];
/** Directed abuse with the swear word hidden or shortened. */
export const MASKED_ABUSE = ['f*** you', 'f u', 'fck you', 'screw you', 'stfu', 'gtfo', 'eff off', 'f off', 'p!ss off', 'sh!thead', 'a$$hole', 'b!tch', 'go f yourself', 'kys'];
/** Kind adjectives for a person: the harmless twins of the insults. */
export const POSITIVE_ADJECTIVES = ['brilliant', 'kind', 'thoughtful', 'hard-working', 'honest', 'talented', 'generous', 'funny', 'clever', 'patient', 'brave', 'lovely', 'sharp', 'decent', 'fair'];
/** Kind nouns for a person. */
export const POSITIVE_NOUNS = ['friend', 'leader', 'teacher', 'player', 'neighbour', 'writer', 'coach', 'cook', 'colleague', 'mentor', 'host', 'artist', 'parent', 'captain', 'person'];
/** Games, markets and hobbies where violent words are ordinary. */
export const GAME_CHATTER = [
  'We got absolutely destroyed in ranked last night', 'that team murdered us in the second half', 'the jungler kept diving me and I died three times',
  'my support kept feeding the whole game', 'I finally killed the last boss after forty tries', 'their sniper was headshotting everyone from spawn',
  'the new patch butchered my favourite build', 'my portfolio got slaughtered this week', 'shorting this stock would be suicide',
  'the market crashed and burned on Friday', 'that goalkeeper got bodied on the last corner', 'our defence got torn apart in the first ten minutes',
];
/** Ordinary civic hashtags. */
export const HASHTAGS_BENIGN = ['#vote', '#election', '#gotv', '#climateaction', '#smallbusiness', '#townhall', '#localnews', '#budget', '#debate', '#communitymeeting'];

/** Invented names, so a named person is a target like any other (the same names appear in the harmless rows). */
export const NAMES = [
  'Senator Hallworth', 'Governor Pike', 'Mayor Delacroix', 'Congresswoman Ibarra', 'Dr. Voss', 'Brenda Kowalski', 'Marcus Teller', 'Judge Okafor',
  'Councillor Fenn', 'President Ramsey', 'Gina Marlowe', 'Coach Dabrowski', 'Pastor Whitcombe', 'Tyler Vance', 'Minister Adeyemi', 'Kayla Brooks',
];
/** Comparisons with the worst of history or of nature, aimed at a person. */
export const VILE_COMPARISONS = ['worse than Hitler', 'a modern-day Mussolini', 'basically a Nazi', 'Stalin with a smile', 'a walking plague', 'lower than a sewer rat', 'the devil in a suit', 'a cult leader'];
/** Mockery of a person's body, age or mind. */
export const MOCKERY = [
  'can barely string two words together', 'looks like a melted candle', 'has the IQ of a houseplant', 'should be in a care home, not in charge',
  'has been drunk since breakfast', 'belongs in a padded cell', 'smells like a landfill', 'is too dim to tie his own shoes', 'is a walking midlife crisis',
  'has a face only a mother could love', 'is rotting from the brain down',
];
/** Sexual degradation of a person. */
export const DEGRADING = ['is only famous for a sex tape', 'is a cheap tramp', 'is a used-up old skank', 'sells herself to anyone with a wallet', 'is nothing but a sugar baby', 'gets passed around like a joint'];
/** Plain news about a named person. */
export const NEUTRAL_FACTS = [
  'visited the flood zone on Tuesday', 'will speak at the graduation', 'announced a new park for the east side', 'answered questions for an hour',
  'was re-elected last spring', 'opened the new library', 'is retiring next year', 'wrote a book about gardening', 'met with nurses this morning',
  'will be on the radio tonight', 'thanked the volunteers', 'is recovering from knee surgery', 'flew to Denver for a conference', 'has three grandchildren',
  'used to teach chemistry', 'grew up on a dairy farm', 'ran the marathon in under four hours', 'signed the water bill on Friday', 'moved the meeting to noon',
  'posted a photo of the harbour', 'plays the cello in a quartet', 'cut the ribbon at the hospital', 'toured the steel plant', 'brought cake to the office',
  'spoke at the rotary club', 'rode the new tram line', 'hosted the charity quiz', 'judged the pie contest', 'visited the school in Maple Grove',
  'answered letters from pupils', 'planted an oak by the town hall', 'is stuck at the airport', 'lost the chess match to a ten-year-old',
  'asked for a recount', 'published the travel receipts', 'skipped the gala this year',
];
/** Emoji that mock. */
export const MOCKING_EMOJI = ['🤡', '💩', '🤮', '🖕', '🤡🤡🤡', '🐀', '🐍', '🙄💩'];
/** Emoji that cheer. */
export const FRIENDLY_EMOJI = ['😂', '❤️', '👍', '🙏', '🎉', '😊', '🔥', '👏'];
