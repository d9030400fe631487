import pg from 'pg'

/**
 * The texts of the statements sent to PostgreSQL while `run` runs, from every client of the process
 * (none on SQLite, which is called in the process): for tests that count what a call costs the database.
 */
export async function statementsSent (run: () => Promise<unknown>): Promise<string[]> {
  const texts: string[] = []
  const query = pg.Client.prototype.query
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0]
    texts.push(typeof first === 'string' ? first : String((first as { text?: string })?.text))
    return (query as (...a: unknown[]) => unknown).apply(this, args)
  } as typeof query
  try {
    await run()
  } finally {
    pg.Client.prototype.query = query
  }
  return texts
}
