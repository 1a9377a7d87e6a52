// Guarded writes on PostgreSQL: a CTE that locks the guarding value's row FOR SHARE, empty unless the guard holds.
import type { WriteGuard } from './storage-adapter.js';

/**
 * The `guard` CTE of a guarded write and its parameters (numbered from `first`): one row when the value at the guard's
 * key exists and each of its fields has the given text (null: absent), locked `FOR SHARE` until the write commits. A
 * concurrent update or delete of that value makes the write wait; it then re-checks the conditions on the new version
 * (READ COMMITTED), so it writes nothing once the guard no longer holds. The conditions are plain comparisons on the
 * locked row (no subquery), which is what PostgreSQL re-checks after such a wait.
 */
export function guardCte(valuesTable: string, guard: WriteGuard, first: number): { sql: string; values: unknown[] } {
  const values: unknown[] = [guard.key];
  const conditions = [`gv.key = $${first}`];
  for (const [field, text] of Object.entries(guard.equals)) {
    values.push(field, text);
    conditions.push(`(gv.value->>$${first + values.length - 2}::text) IS NOT DISTINCT FROM $${first + values.length - 1}::text`);
  }
  return { sql: `guard AS (SELECT 1 AS ok FROM ${valuesTable} gv WHERE ${conditions.join(' AND ')} FOR SHARE OF gv)`, values };
}
