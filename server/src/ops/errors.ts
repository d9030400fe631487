/**
 * How the ops commands (npm run backup, npm run restore) fail: an OpsError is a message for the person
 * at the terminal, printed as one line; anything else is reported the same way, with its message only.
 * Secrets registered here (a database password) are masked in whatever is printed.
 */
export class OpsError extends Error {
  constructor (message: string, readonly exitCode = 1) {
    super(message)
    this.name = 'OpsError'
  }
}

const secrets = new Set<string>()

/** Never print `value` (e.g. the password of DATABASE_URL, raw and URL-encoded). */
export function keepSecret (value: string | undefined | null): void {
  if (!value) return
  secrets.add(value)
  secrets.add(encodeURIComponent(value))
}

/** `text` with every registered secret masked. */
export function masked (text: string): string {
  let out = text
  for (const s of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(s).join('***')
  return out
}

/** One line of text (the first non-empty line, trimmed). */
export function oneLine (text: string): string {
  return text.split(/\r?\n/).map(l => l.trim()).filter(Boolean).join(' / ').slice(0, 600)
}

/**
 * Runs a command's body: on success exits 0 (the database pools are closed by the body), on failure
 * prints `<command>: <message>` on one line to stderr and exits with the error's code (1 by default).
 */
export function runCommand (name: string, body: () => Promise<void>): void {
  body().then(
    () => process.exit(0),
    (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err)
      process.stderr.write(`${name}: ${masked(oneLine(message))}\n`)
      if (process.env.OPS_DEBUG === '1' && err instanceof Error && err.stack) process.stderr.write(masked(err.stack) + '\n')
      process.exit(err instanceof OpsError ? err.exitCode : 1)
    }
  )
}
