/** The time source of the server: injectable so tests can move time forward. */
export type Clock = () => number

export const systemClock: Clock = () => Date.now()

/** A timestamp as stored in the database (ISO-8601 UTC, sortable as text on SQLite). */
export const iso = (ms: number): string => new Date(ms).toISOString()
