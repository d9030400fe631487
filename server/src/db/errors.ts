/** True when a statement failed on a unique constraint (SQLite or PostgreSQL). */
export function isUniqueViolation (err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}
