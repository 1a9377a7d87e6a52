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
];

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
  () => `The article reports that the ${pick(['protester', 'suspect', 'player', 'politician'])} was called a ${pick(['racist slur', 'homophobic slur', 'vile name'])} and the club condemned it.`,
];

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
emit(UNSAFE, 600, true, 'own_abuse');
emit(SAFE, 600, false, 'own_benign');
writeFileSync(OUT, `${rows.join('\n')}\n`);
console.log(`wrote ${rows.length} rows to ${OUT}`);
