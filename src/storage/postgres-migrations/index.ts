// The ordered list of PostgreSQL migrations; append new ones here, never edit a released one.
import { initial } from './001-initial.js';
import { changeNotices } from './002-change-notices.js';
import { counts } from './003-counts.js';
import { counters } from './004-counters.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** Every migration, by ascending version. */
export const MIGRATIONS: readonly Migration[] = [initial, changeNotices, counts, counters];
