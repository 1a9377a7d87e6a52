// Exploration: benign task prompts as extra negatives for the dump script (PI_EXTRA=tasks, PI_TASKS=<count>, PI_TASKW=<weight>).
import { benignTaskPrompts } from '../../train/task-prompt-examples.js';

/** The extra rows. */
export function rows(): Array<{ text: string; labels: boolean[]; weight: number }> {
  return benignTaskPrompts(Number(process.env.PI_TASKS ?? 400)).map((text) => ({ text, labels: [false, false], weight: Number(process.env.PI_TASKW ?? 0.5) }));
}
