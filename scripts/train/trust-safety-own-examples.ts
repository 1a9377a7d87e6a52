// Builds scripts/train/data/trust-safety-own.jsonl: abuse without swear words and harmless look-alikes, from hand-written templates (general knowledge, no dev-set text), seeded.
// Run: npx tsx scripts/train/trust-safety-own-examples.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededRandom } from './linear-trainer.js';

const OUT = fileURLToPath(new URL('./data/trust-safety-own.jsonl', import.meta.url));
const random = seededRandom(20261125);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** Evaluative adjectives that insult a person (a general list of English insults, no swear words). */
const INSULT_ADJECTIVES = [
  'pathetic', 'worthless', 'useless', 'brainless', 'spineless', 'gutless', 'clueless', 'ignorant', 'stupid', 'dumb', 'ugly', 'disgusting',
  'vile', 'repulsive', 'miserable', 'lazy', 'greedy', 'delusional', 'deranged', 'insufferable', 'smug', 'arrogant', 'incompetent',
  'hypocritical', 'braindead', 'two-faced', 'whiny', 'shrill', 'hysterical', 'unhinged', 'feeble-minded', 'half-witted', 'dim-witted',
  'dense', 'thick', 'sad', 'spiteful', 'nasty', 'gross', 'creepy', 'slimy', 'sleazy', 'loathsome', 'contemptible', 'despicable',
  'disgraceful', 'shameless', 'gormless', 'witless', 'mindless', 'senile', 'crazy', 'psychotic', 'toxic', 'evil', 'filthy', 'revolting',
];
/** Nouns that insult a person. */
const INSULT_NOUNS = [
  'idiot', 'moron', 'fool', 'clown', 'loser', 'failure', 'coward', 'creep', 'pig', 'rat', 'snake', 'worm', 'maggot', 'leech', 'parasite',
  'cockroach', 'donkey', 'weasel', 'hypocrite', 'liar', 'fraud', 'joke', 'disgrace', 'embarrassment', 'waste of space', 'waste of oxygen',
  'troll', 'halfwit', 'dimwit', 'nitwit', 'simpleton', 'buffoon', 'imbecile', 'nobody', 'has-been', 'crybaby', 'bootlicker', 'sellout',
  'grifter', 'con artist', 'lowlife', 'degenerate', 'scumbag', 'dirtbag', 'sleazebag', 'slimeball', 'blowhard', 'windbag', 'bigot', 'thug',
  'psycho', 'lunatic', 'nutcase', 'weirdo', 'freak', 'oaf', 'dunce', 'twit', 'clod', 'numpty', 'muppet', 'sheep', 'puppet', 'hag', 'cow',
  'old bag', 'gremlin', 'goblin', 'toad', 'slug', 'vulture', 'hyena', 'monkey', 'animal', 'vermin', 'trash', 'garbage', 'zero',
];
/** Public figures and people an insult is aimed at (generic roles, no real names). */
const TARGETS = [
  'the mayor', 'my boss', 'that senator', 'the referee', 'your president', 'this reporter', 'the governor', 'that streamer', 'the coach',
  'my landlord', 'our neighbour', 'the new manager', 'that influencer', 'this guy', 'that woman', 'the host', 'the minister', 'your husband',
  'his girlfriend', 'the author', 'this commenter', 'the OP', 'that actor', 'the teacher', 'the CEO', 'the umpire', 'the candidate',
];
/** Things that can be judged harshly without abusing anyone. */
const THINGS = [
  'this movie', 'the update', 'the traffic this morning', 'the weather', 'this printer', 'the new logo', 'the sequel', 'my phone battery',
  'the wifi here', 'this recipe', 'the last season', 'the airline food', 'the app', 'this keyboard', 'the plot twist', 'the parking situation',
  'the queue at the post office', 'this spreadsheet', 'the referee decision', 'the soundtrack', 'my first draft', 'the hotel room', 'the coffee',
];
const BAD_ABOUT_THINGS = ['pathetic', 'useless', 'awful', 'terrible', 'disgusting', 'a joke', 'garbage', 'trash', 'a disaster', 'horrible', 'stupid', 'ridiculous', 'the worst', 'a nightmare'];


/** Fates wished on a person (not instructions: the wish itself is the abuse). */
const BAD_FATES = [
  'gets hit by a bus', 'chokes on their breakfast', 'dies alone', 'rots in a cell forever', 'never wakes up', 'burns in hell', 'drops dead',
  'gets what is coming to them', 'catches something nasty and suffers', 'loses everything', 'ends up in a ditch', 'gets beaten up on the way home',
  'falls down the stairs', 'goes bankrupt and starves', 'suffers for the rest of their life',
];
const GOOD_FATES = [
  'gets well soon', 'wins the election', 'has a great holiday', 'gets the promotion', 'recovers quickly', 'enjoys retirement', 'finds a new job soon',
  'makes it to the final', 'gets some rest this weekend', 'has a lovely birthday', 'passes the exam', 'sells the house quickly', 'feels better tomorrow',
];
/** Insulting nicknames for political opponents (general knowledge of online political abuse). */
const POLITICAL_INSULTS = [
  'libtards', 'leftards', 'conservatards', 'rethuglicans', 'repugnicans', 'dumbocrats', 'demonrats', 'magats', 'snowflakes', 'sheeple', 'commies',
  'feminazis', 'wokies', 'lefty loons', 'wingnuts', 'right-wing nutjobs', 'cultists', 'treehuggers', 'gun nuts', 'bible thumpers', 'leftist vermin',
];
/** Political groups and office holders named plainly. */
const POLITICAL_GROUPS = [
  'Democrats', 'Republicans', 'conservatives', 'liberals', 'progressives', 'Labour voters', 'the Tories', 'the Greens', 'libertarians', 'centrists',
  'the senator', 'the president', 'the governor', 'the opposition', 'the prime minister', 'the city council', 'both parties', 'voters in Ohio',
];
const NEUTRAL_POLITICS = [
  'want lower taxes', 'proposed a new healthcare bill', 'lost the vote in the senate', 'are campaigning in the suburbs this week',
  'disagree about immigration policy', 'won the special election', 'should focus more on housing costs', 'held a rally downtown',
  'changed their position on energy', 'released a budget plan today', 'are polling ahead in the south', 'debated school funding last night',
];
const POLICY_TOPICS = ['the budget', 'tariffs', 'school funding', 'the pension reform', 'zoning', 'healthcare', 'the energy plan', 'policing', 'student loans', 'immigration'];
/** Things a person is likened to when they are dehumanised. */
const VERMIN = ['a rat', 'a cockroach', 'vermin', 'a parasite', 'a pig', 'a rabid dog', 'a leech', 'subhuman', 'filth', 'a tapeworm', 'pond scum', 'a plague'];
/** Directed abuse with the swear word hidden or shortened. */
const MASKED_ABUSE = ['f*** you', 'f u', 'fck you', 'screw you', 'stfu', 'gtfo', 'eff off', 'f off', 'p!ss off', 'sh!thead', 'a$$hole', 'b!tch', 'go f yourself', 'kys'];
const POSITIVE_ADJECTIVES = ['brilliant', 'kind', 'thoughtful', 'hard-working', 'honest', 'talented', 'generous', 'funny', 'clever', 'patient', 'brave', 'lovely', 'sharp', 'decent', 'fair'];
const POSITIVE_NOUNS = ['friend', 'leader', 'teacher', 'player', 'neighbour', 'writer', 'coach', 'cook', 'colleague', 'mentor', 'host', 'artist', 'parent', 'captain', 'person'];
/** Games, markets and hobbies where violent words are ordinary. */
const GAME_CHATTER = [
  'We got absolutely destroyed in ranked last night', 'that team murdered us in the second half', 'the jungler kept diving me and I died three times',
  'my support kept feeding the whole game', 'I finally killed the last boss after forty tries', 'their sniper was headshotting everyone from spawn',
  'the new patch butchered my favourite build', 'my portfolio got slaughtered this week', 'shorting this stock would be suicide',
  'the market crashed and burned on Friday', 'that goalkeeper got bodied on the last corner', 'our defence got torn apart in the first ten minutes',
];
const HASHTAGS_BENIGN = ['#vote', '#election', '#gotv', '#climateaction', '#smallbusiness', '#townhall', '#localnews', '#budget', '#debate', '#communitymeeting'];

/** Invented names, so a named person is a target like any other (the same names appear in the harmless rows). */
const NAMES = [
  'Senator Hallworth', 'Governor Pike', 'Mayor Delacroix', 'Congresswoman Ibarra', 'Dr. Voss', 'Brenda Kowalski', 'Marcus Teller', 'Judge Okafor',
  'Councillor Fenn', 'President Ramsey', 'Gina Marlowe', 'Coach Dabrowski', 'Pastor Whitcombe', 'Tyler Vance', 'Minister Adeyemi', 'Kayla Brooks',
];
/** Comparisons with the worst of history or of nature, aimed at a person. */
const VILE_COMPARISONS = ['worse than Hitler', 'a modern-day Mussolini', 'basically a Nazi', 'Stalin with a smile', 'a walking plague', 'lower than a sewer rat', 'the devil in a suit', 'a cult leader'];
/** Mockery of a person's body, age or mind. */
const MOCKERY = [
  'can barely string two words together', 'looks like a melted candle', 'has the IQ of a houseplant', 'should be in a care home, not in charge',
  'has been drunk since breakfast', 'belongs in a padded cell', 'smells like a landfill', 'is too dim to tie his own shoes', 'is a walking midlife crisis',
  'has a face only a mother could love', 'is rotting from the brain down',
];
/** Sexual degradation of a person. */
const DEGRADING = ['slept her way to the top', 'is a cheap tramp', 'is a used-up old skank', 'sells herself to anyone with a wallet', 'is nothing but a sugar baby', 'gets passed around like a joint'];
const NEUTRAL_FACTS = [
  'visited the flood zone on Tuesday', 'will speak at the graduation', 'announced a new park for the east side', 'answered questions for an hour',
  'was re-elected last spring', 'opened the new library', 'is retiring next year', 'wrote a book about gardening', 'met with nurses this morning',
  'will be on the radio tonight', 'thanked the volunteers', 'is recovering from knee surgery', 'flew to Denver for a conference', 'has three grandchildren',
  'used to teach chemistry', 'grew up on a dairy farm', 'ran the marathon in under four hours', 'signed the water bill on Friday', 'moved the meeting to noon',
  'posted a photo of the harbour', 'plays the cello in a quartet', 'cut the ribbon at the hospital', 'toured the steel plant', 'brought cake to the office',
  'spoke at the rotary club', 'rode the new tram line', 'hosted the charity quiz', 'judged the pie contest', 'visited the school in Maple Grove',
  'answered letters from pupils', 'planted an oak by the town hall', 'is stuck at the airport', 'lost the chess match to a ten-year-old',
  'asked for a recount', 'published the travel receipts', 'skipped the gala this year',
];
const MOCKING_EMOJI = ['🤡', '💩', '🤮', '🖕', '🤡🤡🤡', '🐀', '🐍', '🙄💩'];
const FRIENDLY_EMOJI = ['😂', '❤️', '👍', '🙏', '🎉', '😊', '🔥', '👏'];

/**
 * Ordinary comments as people post them under videos, games, recipes and stock tips: the kind of harmless text the
 * corpus barely has (its safe rows are tweets, talk pages, forum posts and instructions). Built from parts.
 */
const CHATTER_TOPICS: ReadonlyArray<{ subjects: readonly string[]; comments: readonly string[] }> = [
  {
    subjects: ['this build', 'the new patch', 'ranked this season', 'the final boss', 'my main', 'the support role', 'this map', 'the last DLC', 'co-op mode', 'the speedrun'],
    comments: ['is so much fun once it clicks', 'feels way better than before', 'took me forty tries but I finally did it', 'needs a small nerf honestly', 'carried my whole team last night', 'is underrated, give it a shot', 'made me rage quit twice', 'is basically a different game now', 'has the best soundtrack', 'is brutal on hard mode'],
  },
  {
    subjects: ['this recipe', 'the sourdough', 'these cookies', 'the ramen', 'my grandma\'s chili', 'the banana bread', 'this curry', 'the pancakes', 'that lasagna', 'the pickles'],
    comments: ['came out perfect on the first try', 'is a staple in our house now', 'needs way more garlic', 'disappeared in ten minutes', 'is ridiculously easy to make', 'tastes even better the next day', 'is my comfort food', 'burned a little but still good', 'is worth every minute', 'got my picky kid to eat vegetables'],
  },
  {
    subjects: ['my dog', 'our cat', 'the puppy', 'my parrot', 'the new kitten', 'our old lab', 'the hamster', 'my rabbit', 'the rescue pup', 'our goldfish'],
    comments: ['steals socks every single morning', 'is the laziest creature alive', 'learned to open the fridge', 'snores louder than my husband', 'is terrified of the vacuum', 'thinks she is a person', 'just turned twelve', 'ate my headphones again', 'sleeps on my face', 'is a total drama queen'],
  },
  {
    subjects: ['the stock', 'my portfolio', 'this ETF', 'the earnings call', 'the market today', 'my options', 'this dividend', 'the premarket', 'crypto this week', 'my 401k'],
    comments: ['is going nowhere fast', 'finally recovered after the dip', 'dropped ten percent on the news', 'is a long hold for me', 'looks overpriced to me', 'crushed expectations', 'got wrecked by the rate hike', 'is the only green thing I own', 'is pure gambling at this point', 'went up right after I sold, of course'],
  },
  {
    subjects: ['this episode', 'the finale', 'season two', 'the trailer', 'that plot twist', 'the new series', 'the soundtrack', 'the director\'s cut', 'the last chapter', 'the cast'],
    comments: ['had me crying at 2 am', 'was wild from start to finish', 'was a bit slow but it pays off', 'is better than the book', 'broke my heart', 'deserves every award', 'left way too many questions', 'is absolutely killing it', 'made me laugh so hard', 'ruined my sleep schedule'],
  },
  {
    subjects: ['the band', 'this song', 'the concert', 'the new album', 'that guitar solo', 'the drummer', 'this cover', 'the remix', 'the opening act', 'the live version'],
    comments: ['slaps so hard', 'has been on repeat all week', 'was loud as hell and I loved it', 'gave me chills', 'is criminally underrated', 'absolutely destroyed the stage', 'sounds like summer', 'is better than the original', 'was worth the ticket price', 'made the whole crowd scream'],
  },
  {
    subjects: ['my kid', 'the toddler', 'our teenager', 'my daughter', 'the baby', 'my son', 'the twins', 'my niece', 'our youngest', 'my nephew'],
    comments: ['asked me why the sky is blue fifty times', 'refuses to wear shoes', 'finally slept through the night', 'beat me at chess', 'is obsessed with dinosaurs', 'drew me a dragon', 'called me old today', 'lost another tooth', 'learned to ride a bike', 'wants to be a chef now'],
  },
  {
    subjects: ['the match', 'that goal', 'the referee', 'the second half', 'our keeper', 'the transfer', 'the new coach', 'the playoffs', 'that penalty', 'the derby'],
    comments: ['was an absolute thriller', 'was robbed, no way that was offside', 'needs glasses', 'was a total bloodbath for the defence', 'saved us again', 'is a massive upgrade', 'has the team playing with heart', 'are going to be insane this year', 'was soft but fine', 'gave me a heart attack'],
  },
  {
    subjects: ['the drive', 'my garden', 'the tomatoes', 'this hike', 'the trail', 'the beach', 'my new bike', 'the view', 'the campsite', 'the road trip'],
    comments: ['was stunning', 'is finally producing', 'nearly killed my legs', 'was packed but worth it', 'is the best thing I bought this year', 'took my breath away', 'got flooded last night', 'is my happy place', 'was cold as hell', 'looked unreal at sunset'],
  },
  {
    subjects: ['my laptop', 'the new phone', 'this keyboard', 'the update', 'my router', 'the printer', 'this app', 'the smartwatch', 'my old PC', 'the charger'],
    comments: ['died right before my deadline', 'is fast as hell now', 'keeps crashing when I open it', 'is worth the upgrade', 'fixed the battery drain', 'is a pain to set up', 'still works after ten years', 'lags like crazy', 'finally supports dark mode', 'randomly restarts at night'],
  },
  {
    subjects: ['my car', 'the old truck', 'this engine', 'the tyres', 'my first motorbike', 'the hybrid', 'the clutch', 'the paint job', 'my commute', 'the road'],
    comments: ['made a weird noise all week', 'passed inspection somehow', 'is a beast in the snow', 'cost a fortune to fix', 'goes like a rocket', 'is my pride and joy', 'got rear-ended at a light', 'is smooth as butter', 'is a nightmare in traffic', 'has two hundred thousand miles on it'],
  },
  {
    subjects: ['this jacket', 'the haircut', 'my new boots', 'that dress', 'the makeup look', 'these jeans', 'the nail art', 'her outfit', 'the glasses', 'his beard'],
    comments: ['looks so good on you', 'was a bold choice and it works', 'shrank in the wash', 'is giving main character energy', 'cost way too much but I love it', 'is so comfy', 'is very nineties', 'turned out better than the picture', 'got me so many compliments', 'is perfect for autumn'],
  },
  {
    subjects: ['my shift', 'the meeting', 'this semester', 'the exam', 'my boss', 'the new job', 'the group project', 'my thesis', 'the interview', 'the commute'],
    comments: ['ran two hours over', 'went better than expected', 'is killing me slowly', 'could have been an email', 'gave everyone Friday off', 'starts Monday, wish me luck', 'is finally done', 'was brutal but I passed', 'was chill today', 'made me question my life choices'],
  },
  {
    subjects: ['the weather', 'this heatwave', 'the snow', 'the storm last night', 'the rain', 'the fog', 'this wind', 'the first frost', 'the sunrise', 'the humidity'],
    comments: ['is insane today', 'knocked out our power', 'is perfect for soup', 'made the commute hell', 'is unreal this year', 'finally broke', 'has the dog confused', 'looked like a painting', 'is melting my brain', 'ruined my barbecue plans'],
  },
  {
    subjects: ['leg day', 'my first marathon', 'the gym', 'this workout', 'my knee', 'the yoga class', 'the swim', 'my deadlift', 'the 5k', 'my step count'],
    comments: ['destroyed me', 'went way better than I hoped', 'is packed at six', 'has me sore in places I did not know existed', 'is finally healing', 'is pure zen', 'was freezing but fun', 'went up ten kilos', 'is my new personal best', 'is embarrassingly low today'],
  },
  {
    subjects: ['this book', 'the sequel', 'the audiobook', 'the author', 'the ending', 'the library', 'this comic', 'the first chapter', 'the translation', 'my reading list'],
    comments: ['kept me up all night', 'is somehow even better', 'has the best narrator', 'is a genius', 'wrecked me', 'has a great sale on', 'is gorgeous', 'drags a bit', 'reads beautifully', 'is out of control'],
  },
];
const CHATTER_OPENERS = ['', 'Honestly', 'Ngl', 'Lol', 'Update:', 'Okay so', 'Not gonna lie,', 'Welp,', 'Man,', 'Fun fact:', 'Same here,', 'Can confirm,'];
const CHATTER_CLOSERS = ['', 'lol', 'haha', '😂', '❤️', '!', '10/10', 'highly recommend', 'send help', 'no regrets', 'what a time', '🙌', 'anyone else?', 'just saying'];
const CHATTER: Array<() => string> = [
  () => {
    const topic = pick(CHATTER_TOPICS);
    return `${pick(CHATTER_OPENERS)} ${pick(topic.subjects)} ${pick(topic.comments)} ${pick(CHATTER_CLOSERS)}`;
  },
  () => {
    const topic = pick(CHATTER_TOPICS);
    return `${pick(topic.subjects)} ${pick(topic.comments)}. ${pick(['Also', 'And', 'Plus'])} ${pick(topic.subjects)} ${pick(topic.comments)} ${pick(CHATTER_CLOSERS)}`;
  },
  () => `${pick(['What a', 'Such a', 'Absolute'])} ${pick(['legend', 'vibe', 'banger', 'gem', 'king', 'queen', 'champ', 'unit', 'chef'])} ${pick(CHATTER_CLOSERS)}`,
  () => `${pick(['This is', 'That was', 'You are', 'He is', 'She is'])} ${pick(['amazing', 'a genius', 'too good', 'on fire today', 'so wholesome', 'unreal', 'hilarious'])} ${pick(CHATTER_CLOSERS)}`,
  () => {
    const topic = pick(CHATTER_TOPICS);
    return `${pick(['Does anyone know why', 'Is it just me or', 'Quick question:', 'Why is it that', 'Anyone else feel like'])} ${pick(topic.subjects)} ${pick(topic.comments)}?`;
  },
  () => {
    const topic = pick(CHATTER_TOPICS);
    return `${pick(['Same!', 'Lmao same', 'This.', 'Exactly this', 'Omg yes', 'Right?!', 'Came here to say this'])} ${pick(topic.subjects)} ${pick(topic.comments)} ${pick(CHATTER_CLOSERS)}`;
  },
];

const UNSAFE: Array<() => string> = [
  () => `you are a ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}`,
  () => `You're such a ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}, nobody wants to hear from you.`,
  () => `What a ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)} you are.`,
  () => `shut your mouth, you ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}`,
  () => `Nobody asked for your opinion, ${pick(INSULT_NOUNS)}.`,
  () => `${pick(TARGETS)} is a ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)} and everyone knows it`,
  () => `${pick(TARGETS)} is the most ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)} I have ever seen`,
  () => `Get lost, you ${pick(INSULT_NOUNS)}. Go crawl back under your rock.`,
  () => `you have the brain of a ${pick(['goldfish', 'peanut', 'potato', 'rock', 'sponge', 'flea', 'toddler'])}, ${pick(INSULT_NOUNS)}`,
  () => `People like you are the reason this world is going downhill. ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}.`,
  () => `you make me sick, you ${pick(INSULT_ADJECTIVES)} little ${pick(INSULT_NOUNS)}`,
  () => `Do everyone a favour and delete your account, ${pick(INSULT_NOUNS)}.`,
  () => `Your mother must be so ashamed of you, you ${pick(INSULT_NOUNS)}.`,
  () => `${pick(TARGETS)}? What a ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}. Can't stand them.`,
  () => `Keep crying, ${pick(INSULT_NOUNS)}. You are ${pick(INSULT_ADJECTIVES)} and always will be.`,
  () => `Imagine being this ${pick(INSULT_ADJECTIVES)}. Go away, ${pick(INSULT_NOUNS)}.`,
  () => `${pick(TARGETS)} is ${pick(INSULT_ADJECTIVES)}, ${pick(INSULT_ADJECTIVES)} and a total ${pick(INSULT_NOUNS)}`,
  () => `No one will ever love you, you ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}.`,
  () => `You are nothing but a ${pick(INSULT_NOUNS)}. A ${pick(INSULT_ADJECTIVES)} one.`,
  () => `Look at this ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)} trying to talk. Pathetic.`,
  () => `Go back to whatever hole you crawled out of, ${pick(INSULT_NOUNS)}.`,
  () => `every word out of your mouth is ${pick(['garbage', 'trash', 'nonsense', 'drivel', 'rubbish'])}, you ${pick(INSULT_NOUNS)}`,
  () => `I hope you ${pick(['lose everything', 'get fired', 'choke on it', 'suffer', 'never wake up', 'rot'])}, you ${pick(INSULT_NOUNS)}`,
  () => `${pick(TARGETS)} should be ${pick(['ashamed', 'locked up', 'run out of town', 'fired tomorrow', 'kicked off the internet'])}, ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}`,
  () => `Send me pictures of your body or I will tell everyone what a ${pick(INSULT_NOUNS)} you are.`,
  () => `I know where you live, ${pick(INSULT_NOUNS)}. Watch your back.`,
  // Harm wished on a person or on political opponents.
  () => `I hope ${pick(TARGETS)} ${pick(BAD_FATES)}.`,
  () => `Honestly hope ${pick(TARGETS)} ${pick(BAD_FATES)}, the ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}`,
  () => `${pick(TARGETS)} deserves to ${pick(['suffer', 'be beaten senseless', 'rot in prison', 'die slowly', 'lose everything they love', 'be spat on'])}.`,
  () => `Somebody should ${pick(['punch', 'slap', 'run over', 'shut up for good', 'beat up', 'take out'])} ${pick(TARGETS)} already.`,
  () => `Go ${pick(['jump off a bridge', 'drink bleach', 'die in a ditch', 'rot', 'choke', 'crawl into a hole and die'])}, you ${pick(INSULT_NOUNS)}.`,
  () => `The world would be better off without ${pick(POLITICAL_INSULTS)} like ${pick(TARGETS)}.`,
  () => `All these ${pick(POLITICAL_INSULTS)} should be ${pick(['locked up', 'deported', 'lined up and shot', 'banned from voting', 'thrown out of the country', 'put down'])}.`,
  // Political name-calling and dehumanising comparisons.
  () => `${pick(POLITICAL_INSULTS)} are the most ${pick(INSULT_ADJECTIVES)} people alive`,
  () => `Only ${pick(POLITICAL_INSULTS)} would vote for ${pick(TARGETS)}. ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}s, all of them.`,
  () => `Another day, another ${pick(POLITICAL_INSULTS)} meltdown. #${pick(POLITICAL_INSULTS).replace(/[\s-]/g, '')}`,
  () => `${pick(POLITICAL_GROUPS)} are a cancer on this country and ${pick(POLITICAL_INSULTS)} to the core`,
  () => `${pick(TARGETS)} is ${pick(VERMIN)} and should be treated like one.`,
  () => `${pick(TARGETS)} is worse than ${pick(['the plague', 'the devil', 'a war criminal', 'cancer', 'a tyrant'])}, ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}`,
  () => `${pick(POLITICAL_INSULTS)} are ${pick(VERMIN)}. Every single one of them.`,
  // The harmless rows' news and policy words with abuse, so those words lean neither way.
  () => `${pick(NAMES)} ${pick(NEUTRAL_FACTS)}. What a ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}.`,
  () => `${pick(POLITICAL_GROUPS)} ${pick(NEUTRAL_POLITICS)}? ${pick(POLITICAL_INSULTS)} are ${pick(VERMIN)}.`,
  () => `Talking about ${pick(POLICY_TOPICS)} with ${pick(POLITICAL_INSULTS)} is like talking to a wall, ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}s.`,
  () => `I disagree with ${pick(NAMES)} on ${pick(POLICY_TOPICS)} because ${pick(['she', 'he', 'they'])} ${pick(['is', 'are'])} a ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}.`,
  // Masked or shortened swearing aimed at someone.
  () => `${pick(MASKED_ABUSE)}, ${pick(INSULT_NOUNS)}`,
  () => `${pick(TARGETS)} can ${pick(['go f himself', 'eat sh!t', 'kiss my a$$', 'go to hell', 'shove it'])}, ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)}`,
  () => `SHUT UP ${pick(INSULT_NOUNS).toUpperCase()}!!! ${pick(MASKED_ABUSE).toUpperCase()}`,
  // Named people: mockery, vile comparisons, sexual degradation, contempt.
  () => `${pick(NAMES)} ${pick(MOCKERY)}. ${pick(['Pathetic.', 'What a joke.', 'Disgrace.', '', 'Sad!'])} ${pick(MOCKING_EMOJI)}`,
  () => `${pick(NAMES)} is ${pick(VILE_COMPARISONS)} and anyone who votes for ${pick(['him', 'her', 'them'])} is ${pick(['just as bad', 'a brainwashed ' + pick(INSULT_NOUNS), 'complicit'])}`,
  () => `Everyone knows ${pick(NAMES)} ${pick(DEGRADING)}.`,
  () => `${pick(NAMES)}? ${pick(INSULT_ADJECTIVES)} ${pick(INSULT_NOUNS)} ${pick(MOCKING_EMOJI)}`,
  () => `These people ${pick(['are a disgrace', 'make me sick', 'are too stupid to breathe', 'should be ashamed to exist', 'are the scum of the earth'])}. ${pick(POLITICAL_INSULTS)}, all of them.`,
  () => `${pick(NAMES)} should ${pick(['be dragged out of office and beaten', 'hang for this', 'be locked in a cage', 'rot in jail with the rest of the ' + pick(POLITICAL_INSULTS), 'go die somewhere quiet'])}`,
  () => `#${pick(NAMES).split(' ').pop()}Is${pick(['ALoser', 'Trash', 'AClown', 'Vermin', 'AFraud', 'Scum'])} ${pick(MOCKING_EMOJI)}`,
];

/** Abuse in the same chatty wrapping as the harmless comments ("Honestly … lol"), so the wrapping itself teaches nothing. */
const CASUAL_CLOSERS = ['lol', 'haha', '😂', '🤣', '!', 'just saying', 'anyone else?', 'what a time', 'smh', '🙄'];
const BARE_UNSAFE = [...UNSAFE];
/** One harmless sentence of the kind that surrounds abuse in a longer post (the same sentences surround harmless rows). */
const context = (): string =>
  `${pick([
    () => pick(CHATTER)(),
    () => `${pick(NAMES)} ${pick(NEUTRAL_FACTS)}`,
    () => `${pick(POLITICAL_GROUPS)} ${pick(NEUTRAL_POLITICS)}`,
  ])()}.`.replace(/\s+\./, '.');
UNSAFE.push(
  () => `${pick(CHATTER_OPENERS)} ${pick(BARE_UNSAFE)()} ${pick(CASUAL_CLOSERS)}`,
  () => `${pick(CHATTER_OPENERS)} ${pick(BARE_UNSAFE)()} ${pick(CASUAL_CLOSERS)}`,
  () => `${pick(BARE_UNSAFE)()} ${pick(CASUAL_CLOSERS)}`,
  // Abuse in the middle of ordinary talk: the harmless sentences around it must not cancel it.
  () => `${context()} ${pick(BARE_UNSAFE)()}`,
  () => `${pick(BARE_UNSAFE)()} ${context()}`,
  () => `${context()} ${context()} ${pick(BARE_UNSAFE)()}`,
  () => `${context()} ${pick(BARE_UNSAFE)()} ${context()} ${context()}`,
);

const SAFE: Array<() => string> = [
  // Violent words in technical, cooking, game and idiom senses.
  () => `How do I ${pick(['kill', 'terminate', 'stop', 'kill -9'])} a ${pick(['Python', 'Java', 'node', 'zombie', 'background', 'hung', 'runaway'])} process ${pick(['on Linux', 'on Windows', 'in Docker', 'that ignores SIGTERM', 'by name', ''])}?`,
  () => `What's the best way to ${pick(['kill', 'shoot', 'take out', 'beat', 'defeat', 'destroy'])} the ${pick(['final boss', 'dragon', 'zombies', 'enemy tanks', 'raid boss', 'witch'])} in ${pick(['Elden Ring', 'Zelda', 'Minecraft', 'Dark Souls', 'Skyrim', 'this level'])}?`,
  () => `How do I ${pick(['execute', 'run', 'kill', 'abort', 'nuke'])} ${pick(['a shell script', 'all child threads', 'a stuck cron job', 'the docker cache', 'a SQL query that hangs', 'my local branch'])}?`,
  () => `How do I ${pick(['butcher', 'chop', 'slaughter-free prep', 'debone', 'carve'])} a ${pick(['chicken', 'turkey', 'whole salmon', 'leg of lamb', 'pumpkin'])} for ${pick(['dinner', 'the holidays', 'a roast', 'soup'])}?`,
  () => `${pick(['Beat', 'Whip', 'Smash', 'Crush', 'Mash'])} the ${pick(['eggs', 'garlic', 'potatoes', 'cream', 'biscuits'])} ${pick(['until fluffy', 'with a fork', 'for two minutes', 'into a paste'])}.`,
  () => `How can I ${pick(['shoot', 'capture', 'photograph'])} ${pick(['a sunset', 'fireworks', 'portraits', 'the moon', 'a wedding'])} with a ${pick(['phone', 'DSLR', 'film camera'])}?`,
  () => `You absolutely ${pick(['killed it', 'smashed it', 'nailed it', 'slayed'])} at ${pick(['the concert', 'your presentation', 'karaoke', 'the marathon', 'the interview'])} last night!`,
  () => `Where can I ${pick(['buy', 'get', 'find'])} a ${pick(['good kitchen knife', 'axe for firewood', 'bow for archery class', 'paintball gun', 'water pistol'])}?`,
  () => `Why did ${pick(['the Roman Empire', 'the Titanic', 'Napoleon', 'the Soviet Union', 'the dinosaurs'])} ${pick(['fall', 'sink', 'lose at Waterloo', 'collapse', 'die out'])}?`,
  () => `How do I ${pick(['kill', 'get rid of', 'eliminate'])} ${pick(['weeds', 'mould', 'fruit flies', 'bed bugs', 'the smell in my fridge', 'aphids'])} ${pick(['naturally', 'without chemicals', 'for good', ''])}?`,
  () => `What does it mean to "${pick(['bomb an exam', 'kill two birds with one stone', 'break a leg', 'shoot the breeze', 'bite the bullet', 'go for the jugular'])}"?`,
  // Harsh words about things, not people.
  () => `${pick(THINGS)} is ${pick(BAD_ABOUT_THINGS)}, honestly.`,
  () => `Ugh, ${pick(THINGS)} was ${pick(BAD_ABOUT_THINGS)} again today.`,
  // Second person, not abuse.
  () => `You are ${pick(['a great', 'such a kind', 'an amazing', 'a brilliant', 'a wonderful', 'a patient'])} ${pick(['friend', 'teacher', 'cook', 'listener', 'person', 'writer', 'colleague'])}, thank you.`,
  () => `You're not ${pick(['an idiot', 'stupid', 'a failure', 'useless', 'a loser'])} for ${pick(['making a mistake', 'asking for help', 'failing the test', 'feeling sad', 'not knowing this'])}. Be kind to yourself.`,
  () => `Don't listen to anyone who calls you ${pick(['worthless', 'stupid', 'ugly', 'a loser', 'lazy'])}. You matter.`,
  () => `Your ${pick(['idea', 'essay', 'drawing', 'code', 'garden', 'soup'])} is ${pick(['brilliant', 'lovely', 'really clever', 'so good', 'inspiring'])}!`,
  () => `You ${pick(['must be tired', 'should get some rest', 'look happy today', 'did your best', 'are always welcome here'])}.`,
  // Groups and identity named plainly.
  () => `${pick(['My neighbours', 'Our new colleagues', 'Her in-laws', 'The family next door'])} are ${pick(['Muslim', 'Jewish', 'Hindu', 'Sikh', 'Mexican', 'Nigerian', 'Korean', 'gay', 'deaf'])} and ${pick(['invited us to dinner', 'helped us move', 'run the bakery on our street', 'are lovely people'])}.`,
  () => `What ${pick(['holidays', 'foods', 'traditions', 'languages'])} do ${pick(['Jewish', 'Muslim', 'Hindu', 'Chinese', 'Ethiopian', 'Indigenous Australian'])} ${pick(['people', 'families', 'communities'])} ${pick(['celebrate', 'share', 'keep', 'speak'])}?`,
  () => `I am ${pick(['a gay man', 'a trans woman', 'a Black woman', 'an immigrant', 'disabled', 'Muslim', 'a refugee', 'autistic'])} and ${pick(['I love my job', 'I just finished my degree', 'I run a small bakery', 'this is my story', 'I vote in every election'])}.`,
  // The abuse templates' frames with kind or neutral words, so the frame alone teaches nothing.
  () => `you are a ${pick(POSITIVE_ADJECTIVES)} ${pick(POSITIVE_NOUNS)}`,
  () => `What a ${pick(POSITIVE_ADJECTIVES)} ${pick(POSITIVE_NOUNS)} you are.`,
  () => `${pick(TARGETS)} is a ${pick(POSITIVE_ADJECTIVES)} ${pick(POSITIVE_NOUNS)} and everyone knows it`,
  () => `${pick(TARGETS)} is the most ${pick(POSITIVE_ADJECTIVES)} ${pick(POSITIVE_NOUNS)} I have ever seen`,
  () => `Keep going, ${pick(POSITIVE_NOUNS)}. You are ${pick(POSITIVE_ADJECTIVES)} and always will be.`,
  () => `I hope ${pick(TARGETS)} ${pick(GOOD_FATES)}.`,
  () => `${pick(TARGETS)} deserves to ${pick(['win', 'be promoted', 'take a break', 'be proud', 'get the award', 'be heard'])}.`,
  () => `Somebody should ${pick(['thank', 'buy a coffee for', 'give an award to', 'call', 'interview', 'hire'])} ${pick(TARGETS)} already.`,
  () => `The world would be better with more people like ${pick(TARGETS)}.`,
  () => `Stop crying over ${pick(THINGS)}, it is not worth it.`,
  // Named people, plainly or warmly.
  () => `${pick(NAMES)} ${pick(NEUTRAL_FACTS)}. ${pick(FRIENDLY_EMOJI)}`,
  () => `${pick(NAMES)} is ${pick(['the best coach we ever had', 'a class act', 'so underrated', 'doing a solid job', 'my favourite speaker', 'always on time'])} ${pick(FRIENDLY_EMOJI)}`,
  () => `Everyone knows ${pick(NAMES)} ${pick(NEUTRAL_FACTS)}.`,
  () => `I don't agree with ${pick(NAMES)} about ${pick(POLICY_TOPICS)}, but ${pick(['the speech was fair', 'I respect the effort', 'the numbers add up', 'we can talk it through'])}.`,
  () => `#${pick(NAMES).split(' ').pop()}${pick(['ForMayor', '2028', 'TownHall', 'Interview', 'Live'])} ${pick(FRIENDLY_EMOJI)}`,
  () => `${pick(['lol', 'haha', 'omg', 'ngl'])} ${pick(THINGS)} ${pick(['made my day', 'is a mood', 'broke me', 'is so bad it is good'])} ${pick(FRIENDLY_EMOJI)}${pick(FRIENDLY_EMOJI)}`,
  // Politics without abuse: criticism of a plan is not an insult.
  () => `${pick(POLITICAL_GROUPS)} ${pick(NEUTRAL_POLITICS)}.`,
  () => `I strongly disagree with ${pick(POLITICAL_GROUPS)} on ${pick(POLICY_TOPICS)}; the plan makes no sense to me.`,
  () => `${pick(POLITICAL_GROUPS)} got ${pick(['it wrong', 'it right', 'lucky', 'outvoted'])} on ${pick(POLICY_TOPICS)} ${pick(['again', 'this time', 'last year', ''])}. ${pick(HASHTAGS_BENIGN)}`,
  () => `Great turnout at the ${pick(['rally', 'town hall', 'debate watch party', 'polling station'])} today! ${pick(HASHTAGS_BENIGN)} ${pick(HASHTAGS_BENIGN)}`,
  () => `Why do ${pick(POLITICAL_GROUPS)} keep talking about ${pick(POLICY_TOPICS)} instead of ${pick(POLICY_TOPICS)}?`,
  // Games, sport and markets, and swearing about things rather than at someone.
  () => `${pick(GAME_CHATTER)} ${pick(['lol', 'haha', 'gg', '😂', '', 'rip'])}`,
  () => `${pick(['holy shit', 'damn', 'hell yeah', 'fuck yes', 'oh my god'])}, ${pick(THINGS)} is ${pick(['amazing', 'so good', 'actually great', 'wild', 'better than I expected'])}`,
  () => `${pick(THINGS)} is ${pick(['hard as hell', 'a pain in the ass', 'damn confusing', 'fucking expensive', 'a shitshow'])} but I love it`,
  () => `The article reports that the ${pick(['protester', 'suspect', 'player', 'politician'])} was called a ${pick(['racist slur', 'homophobic slur', 'vile name'])} and the club condemned it.`,
];

/** Harmless rows in the same surroundings as the abuse above, so the surroundings teach nothing. */
const BARE_SAFE = [...SAFE];
SAFE.push(
  () => `${context()} ${pick(BARE_SAFE)()}`,
  () => `${pick(BARE_SAFE)()} ${context()}`,
  () => `${context()} ${context()} ${pick(BARE_SAFE)()}`,
  () => `${context()} ${pick(BARE_SAFE)()} ${context()} ${context()}`,
);

const rows: string[] = [];
const seen = new Set<string>();
const emit = (templates: Array<() => string>, count: number, unsafe: boolean, tag: string): void => {
  let made = 0;
  for (let attempt = 0; made < count && attempt < count * 20; attempt += 1) {
    const text = pick(templates)().replace(/\s+/g, ' ').replace(/ \?/g, '?').trim();
    if (seen.has(text.toLowerCase())) continue;
    seen.add(text.toLowerCase());
    rows.push(JSON.stringify({ id: `${tag}-${made}`, text, labels: { unsafe, category: unsafe ? 'unknown' : 'none' }, source: 'own/trust-safety@templates:scripts/train/trust-safety-own-examples.ts' }));
    made += 1;
  }
};
emit(UNSAFE, 1800, true, 'own_abuse');
emit(SAFE, 1800, false, 'own_benign');
emit(CHATTER, 600, false, 'own_chatter');
writeFileSync(OUT, `${rows.join('\n')}\n`);
console.log(`wrote ${rows.length} rows to ${OUT}`);
