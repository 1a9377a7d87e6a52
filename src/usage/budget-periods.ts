// Budget periods in UTC: the day, the ISO week (from Monday) or the calendar month that holds a moment.

/** The length of a budget. */
export type BudgetPeriod = 'day' | 'week' | 'month';

/** The period holding `at`: its start (inclusive) and end (exclusive), in UTC. */
export function periodOf(period: BudgetPeriod, at: Date): { start: Date; end: Date } {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  const day = at.getUTCDate();
  if (period === 'month') return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
  if (period === 'week') {
    const sinceMonday = (at.getUTCDay() + 6) % 7;
    return { start: new Date(Date.UTC(year, month, day - sinceMonday)), end: new Date(Date.UTC(year, month, day - sinceMonday + 7)) };
  }
  return { start: new Date(Date.UTC(year, month, day)), end: new Date(Date.UTC(year, month, day + 1)) };
}

/** `YYYY-MM-DD` of a moment, in UTC. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
