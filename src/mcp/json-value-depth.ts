// The nesting depth of an already parsed JSON value, measured without recursion (V8's JSON.parse does not recurse; serialisers do).

/**
 * True when objects and arrays in `value` nest deeper than `maxDepth`, counted as `jsonDepthExceeds` counts them
 * in text (`{"a":[[1]]}` has depth 3). Iterative, so hostile nesting is refused before any recursive walk.
 * @example
 * valueDepthExceeds({ a: [[1]] }, 2); // true
 */
export function valueDepthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 1 }];
  while (stack.length > 0) {
    const { value: current, depth } = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(current)) if (child !== null && typeof child === 'object') stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}
