// Exploration: indirect-injection family rows as extra rows for the dump script (PI_EXTRA=indirect; PI_FOREIGN=1 adds the probes in other languages).
import { foreignProbeExamples, indirectInjectionExamples } from '../../train/indirect-injection-examples.js';

/** The extra rows. */
export function rows(): Array<{ text: string; labels: boolean[]; weight: number }> {
  const own = [...indirectInjectionExamples(undefined, process.env.PI_FAM?.split(',')), ...(process.env.PI_FOREIGN ? foreignProbeExamples() : [])];
  return own.map((row) => ({ text: row.text, labels: [row.prompt_injection, row.jailbreak], weight: Number(process.env.PI_INDW ?? 0.5) }));
}
