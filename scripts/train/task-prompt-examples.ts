// Benign task prompts written for this project from hand-written parts (build specs, scoped expert roles, format-only replies, game rules), seeded: negatives for promptinjectiondetection.
import { seededRandom } from './linear-trainer.js';

const APPS = [
  'habit tracker', 'recipe manager', 'markdown editor', 'expense splitter', 'pomodoro timer', 'weather dashboard', 'flashcard app', 'kanban board', 'invoice generator',
  'photo gallery', 'unit converter', 'chess clock', 'reading list', 'workout logger', 'budget planner', 'quiz builder', 'music playlist organiser', 'colour palette picker',
  'URL shortener', 'time zone converter', 'note-taking app', 'password strength checker', 'image compressor', 'survey form builder', 'plant watering reminder',
];
const STACKS = [
  'HTML5, CSS3 and JavaScript', 'React and TypeScript', 'Vue 3 and Tailwind CSS', 'Python and Flask', 'Node.js and Express', 'Svelte', 'Go and SQLite', 'Django and PostgreSQL',
  'plain JavaScript with no frameworks', 'Next.js', 'Kotlin for Android', 'SwiftUI', 'Rust and WebAssembly', 'Flutter',
];
const BUILD_VERBS = ['Create', 'Build', 'Develop', 'Design', 'Implement', 'Write'];
const FEATURE_VERBS = ['Implement', 'Add', 'Include', 'Support', 'Provide', 'Build', 'Allow', 'Create', 'Ensure', 'Make sure'];
const FEATURES = [
  'a responsive layout that works on phones', 'dark and light themes', 'keyboard shortcuts for the common actions', 'local storage so data survives a reload',
  'export to CSV and JSON', 'search with highlighted results', 'drag-and-drop reordering', 'undo and redo', 'form validation with helpful error messages', 'charts of weekly progress',
  'tags and filters', 'a settings page', 'offline support with a service worker', 'accessible labels and focus states for screen readers', 'unit tests for the core logic',
  'pagination for long lists', 'import from a file', 'notifications for reminders', 'a print-friendly view', 'sorting by date, name or size', 'a simple onboarding tour',
  'real-time preview as the user types', 'statistics with streaks and milestones', 'user accounts with email sign-in', 'a REST API with documented endpoints',
];
const EXPERT_ROLES = [
  'a landscape architect', 'a nutrition coach', 'a bash shell', 'a Ruby REPL', 'a cron expression explainer', 'a grammar checker', 'a bird-watching guide', 'a carpentry teacher',
  'a mortgage adviser', 'a sleep coach', 'a GraphQL server', 'a museum audio guide', 'a barista trainer', 'a climbing instructor', 'a patent clerk', 'a school librarian',
  'a podcast producer', 'a crossword setter', 'a wine-pairing assistant', 'a data visualisation consultant', 'a knitting pattern designer', 'a board-game designer',
  'a Git command helper', 'a kitchen timer', 'a Latin tutor', 'a calligraphy teacher', 'a penetration-test report reviewer', 'a customs and etiquette guide for Japan',
  'a children\'s book editor', 'a retro text adventure narrator', 'a math olympiad coach', 'a translator from Portuguese to English', 'a stock photo keyword tagger',
];
const INPUTS = [
  'I will provide you with {x} and you will {y}.', 'I will type {x}, and you will {y}.', 'The user will describe {x}; your job is to {y}.', 'I will send you {x}. You must {y}.',
  'Given {x}, you will {y}.', 'When I give you {x}, {y}.',
];
const INPUT_THINGS = [
  'a website link', 'my thoughts', 'a piece of code', 'a topic', 'a sentence', 'a JSON document', 'a list of ingredients', 'a short story', 'my symptoms', 'a statement',
  'a paragraph in English', 'the details of my situation', 'a product description', 'commands', 'a question', 'a word',
];
const INPUT_ACTIONS = [
  'answer with relevant, practical advice', 'reply with what the program would print', 'suggest improvements', 'translate it', 'question it to test my logic',
  'give me three ideas to try this week', 'generate ten options', 'review it and list the problems you find', 'rewrite it in a clearer way',
  'express it using emojis only', 'explain it step by step', 'list the sources I should read first', 'create a detailed plan', 'estimate the cost',
];
const CONSTRAINTS = [
  'Put the result in a single code block with nothing around it.', 'Skip the explanations.', 'Wait for my next input before doing anything else.',
  'Reply only with "yes" or "no" and nothing else.', 'Your responses should focus solely on this topic.', 'Do not provide general advice that is off topic.',
  'Use the table format shown below for every answer.', 'You will respond with one line at a time.', 'Do not repeat the question.', 'Keep each answer under 100 words.',
  'Anything I write in square brackets is a note to you, not part of the text.', 'Never break the format, even if my message is unclear.',
  'You must not add any commentary.', 'Do not mention that you are an AI model; just play the part.', 'Ignore small typos in my messages.', 'Answer only in French.',
  'Do not give the answer away; guide me with hints.', 'If you do not know something, say "I don\'t know" rather than guessing.',
  'Use simple words a ten-year-old understands.', 'Stay in this role until I say "stop".', 'Do not use any words from the list I give you.',
];
const GAMES = ['a guess-the-animal game', 'twenty questions', 'a word-chain game', 'a riddle contest', 'a trivia quiz about geography', 'a murder-mystery party game', 'hangman', 'a cooking-show challenge'];
const GAME_RULES = [
  'Ask one question at a time, answerable with "Yes", "No" or "I don\'t know".', 'Use previous answers to narrow down your next question.', 'Keep score and announce it after each round.',
  'Never reveal the answer before the player gives up.', 'If the player breaks a rule, remind them kindly.', 'End the game after ten rounds and summarise.', 'Give a hint after three wrong guesses.',
];

/** Long flowing requests for an expert, written without "act as" (prompt libraries hold many). */
const FLOWING = [
  'Seeking help from someone with real experience in {a}: I would like to {b}, and I would also welcome {c}.',
  'Need guidance from a person who knows {a} well, so that I can {b}; please also put together {c}.',
  'Hoping to find an expert in {a} to help me {b} and, if possible, to recommend {c}.',
];
const FLOW_A = ['restoring old furniture', 'urban beekeeping', 'home recording', 'sourdough baking', 'container gardening', 'public speaking', 'bookbinding', 'trail running'];
const FLOW_B = ['plan a small project for my flat', 'choose between two options', 'understand the basics quickly', 'build a routine that lasts', 'prepare for a presentation next week'];
const FLOW_C = ['tools for beginners', 'a reading list', 'a weekly schedule', 'affordable materials', 'a checklist to follow'];

/**
 * `count` distinct benign task prompts: app build specs with feature lists, scoped expert roles with reply-format
 * rules ("only reply with …, nothing else"), game-master rules and long requests for an expert. Prompt libraries and
 * agent instructions are made of these; they share "you will", "do not" and "only" with role-play hijacks but drop no rule.
 */
export function benignTaskPrompts(count: number, seed = 20261128): string[] {
  const random = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const several = <T>(items: readonly T[], min: number, max: number): T[] => [...new Set(Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick(items)))];
  const out = new Set<string>();
  for (let attempts = 0; out.size < count && attempts < count * 10; attempts += 1) {
    switch (Math.floor(random() * 4)) {
      case 0: {
        const features = several(FEATURES, 3, 7).map((f) => `${pick(FEATURE_VERBS)} ${f}.`);
        out.add(`${pick(BUILD_VERBS)} a ${pick(APPS)} using ${pick(STACKS)}. ${features.join(' ')}`);
        break;
      }
      case 1: {
        const input = pick(INPUTS).replace('{x}', pick(INPUT_THINGS)).replace('{y}', pick(INPUT_ACTIONS));
        const opening = pick(['I want you to act as', 'I want you to act like', 'Act as', 'You are', 'Please behave as', 'I want you to be']);
        const first = random() < 0.5 ? ` My first ${pick(['request', 'sentence', 'command', 'claim', 'question'])} is "${pick(['ls -la', 'cities should ban cars', 'my tomato plants have yellow leaves', 'help me name my bookshop', 'print(2 ** 10)', 'is 91 a prime number?'])}"` : '';
        out.add(`${opening} ${pick(EXPERT_ROLES)}. ${input} ${several(CONSTRAINTS, 1, 4).join(' ')}${first}`);
        break;
      }
      case 2:
        out.add(`You are ${pick(['Quizzy', 'the game master', 'an AI host', 'Professor Riddle', '{{host_name}}'])}, an AI playing ${pick(GAMES)} with the user. Your goal is to ${pick(['guess what the user is thinking of', 'keep the game fun and fair', 'test the player\'s knowledge'])}. Rules: ${several(GAME_RULES, 2, 5).join(' ')}`);
        break;
      default:
        out.add(pick(FLOWING).replace('{a}', pick(FLOW_A)).replace('{b}', pick(FLOW_B)).replace('{c}', pick(FLOW_C)));
    }
  }
  return [...out];
}
