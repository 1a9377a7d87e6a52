// Matches the keys of one budget or per-minute owner (`<owner>:<id>:[<created_at>:]<rest>`) exactly, though names may hold ':'.

/** An application incarnation as keys hold it: its record's `created_at` (an ISO timestamp). */
const INCARNATION = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?Z';

/**
 * A matcher of the keys of one owner: `<prefix><owner>:<id>:` followed by an optional incarnation and a rest that
 * matches `tail` (a regular expression source). An application name may hold `:`, so a plain prefix test of `app`
 * would also take the keys of `app:x`; the rest is checked to hold nothing but the incarnation and `tail`.
 * @example
 * const owns = ownerKeys('', 'application', 'app', '(?:requests|tokens)');
 * owns('application:app:2030-01-01T00:00:00.000Z:requests'); // true
 * owns('application:app:x:requests'); // false
 */
export function ownerKeys(prefix: string, owner: string, id: string, tail: string): (key: string) => boolean {
  const head = `${prefix}${owner}:${id}:`;
  const rest = new RegExp(`^(?:${INCARNATION}:)?${tail}$`);
  return (key) => key.startsWith(head) && rest.test(key.slice(head.length));
}
