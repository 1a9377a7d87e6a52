// Finds items of one gateway.yaml list that share a name: start would create the first and skip the others as existing.

/** One problem in a config file, with the path of the field it is about. */
interface NameProblem {
  path: string;
  message: string;
}

/** The lists whose items are created by name at start. */
const NAMED_LISTS = ['providers', 'routes', 'applications', 'registries'] as const;

/**
 * Answers one problem per item whose `name` an earlier item of the same list already has. Without it, the second
 * item (its policy included) would be dropped at start with nothing but an info line, as if it already existed.
 * @example
 * duplicateNameProblems({ routes: [{ name: 'chat' }, { name: 'chat' }] });
 * // [{ path: 'routes[1].name', message: "The field 'routes[1].name' repeats the name 'chat' of routes[0]; …" }]
 */
export function duplicateNameProblems(value: unknown): NameProblem[] {
  if (typeof value !== 'object' || value === null) return [];
  const problems: NameProblem[] = [];
  for (const list of NAMED_LISTS) {
    const items = (value as Record<string, unknown>)[list];
    if (!Array.isArray(items)) continue;
    const first = new Map<string, number>();
    items.forEach((item: unknown, index) => {
      const name = typeof item === 'object' && item !== null ? (item as { name?: unknown }).name : undefined;
      if (typeof name !== 'string') return;
      const earlier = first.get(name);
      if (earlier === undefined) {
        first.set(name, index);
        return;
      }
      const path = `${list}[${index}].name`;
      problems.push({ path, message: `The field '${path}' repeats the name '${name}' of ${list}[${earlier}]; each name may appear once.` });
    });
  }
  return problems;
}
