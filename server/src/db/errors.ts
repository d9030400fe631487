/** True when a statement failed on a unique constraint (SQLite or PostgreSQL). */
export function isUniqueViolation (err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/** PostgreSQL gave up on a transaction that may succeed when run again (deadlock, serialization failure). */
export function isRetryableConflict (err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '40P01' || code === '40001'
}
