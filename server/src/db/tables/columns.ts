/** What every table's rows share (see ../schema.ts). */

/** An ISO-8601 UTC string on both dialects. */
export type Timestamp = string
