// Builds scripts/train/data/trust-safety-own.jsonl: abuse in many forms, harmless look-alikes and everyday comments, from hand-written templates (general knowledge, no dev-set text), seeded.
// Run: npx tsx scripts/train/trust-safety-own-examples.ts
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { seededRandom } from './linear-trainer.js';
import { CHATTER_TOPICS, CHATTER_OPENERS, CHATTER_CLOSERS } from './trust-safety-own-chatter.js';
import {
  INSULT_ADJECTIVES,
  INSULT_NOUNS,
  TARGETS,
  THINGS,
  BAD_ABOUT_THINGS,
  BAD_FATES,
  GOOD_FATES,
  POLITICAL_INSULTS,
  POLITICAL_GROUPS,
  NEUTRAL_POLITICS,
  POLICY_TOPICS,
  VERMIN,
  MASKED_ABUSE,
  POSITIVE_ADJECTIVES,
  POSITIVE_NOUNS,
  GAME_CHATTER,
  HASHTAGS_BENIGN,
  NAMES,
  VILE_COMPARISONS,
  MOCKERY,
  DEGRADING,
  NEUTRAL_FACTS,
  MOCKING_EMOJI,
  FRIENDLY_EMOJI,
} from './trust-safety-own-words.js';

const OUT = fileURLToPath(new URL('./data/trust-safety-own.jsonl', import.meta.url));
const random = seededRandom(20261125);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

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
