// Storage names of an application's Chronicles: its log and its usage graph.

/** The log name of an application's Chronicles. */
export const chroniclesLog = (application: string): string => `chronicles/${application}`;
/** The storage key of an application's usage graph. */
export const usageGraphKey = (application: string): string => `chronicles-graph/${application}`;
