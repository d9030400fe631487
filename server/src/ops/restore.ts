/**
 * npm run restore -- FILE [--force]
 *
 * Restores a backup made by `npm run backup` into the empty data directory (DATA_DIR, SQLite) or the
 * empty database (DATABASE_URL, PostgreSQL). In order, before anything is written:
 *  1. every byte of FILE is checked (its structure and the SHA-256 of each member);
 *  2. the backup must be of the target's kind (SQLite or PostgreSQL) and made by this version of the
 *     shop or an older one (its migrations known here; newer ones run when the server starts);
 *  3. the target must be empty, unless --force (then what it holds is replaced; refused while a server
 *     uses it).
 * The restored copy is checked against the manifest (row counts of every table) before it takes the
 * place of anything: a failed restore changes nothing.
 */
import { migrations } from '../db/migrate'
import { verifyArchive, type VerifiedArchive } from './archive'
import { commandArgs, exitOnSignals, npmAteOption, storage } from './cli'
import { OpsError, runCommand } from './errors'
import { pgTarget, restorePostgres } from './postgres'
import { summary } from './snapshot'
import { restoreSqlite } from './sqlite'

const USAGE = 'npm run restore -- FILE [--force]'

const NAMES = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const

/** The backup's migrations must all be known to this code; returns how many newer ones it lacks. */
function pendingMigrations (archive: VerifiedArchive): number {
  const known = Object.keys(migrations(archive.manifest.dialect))
  const unknown = archive.manifest.migrations.applied.filter(n => !known.includes(n))
  if (unknown.length) {
    throw new OpsError(`${archive.file} was made by a newer version of the shop (migration${unknown.length > 1 ? 's' : ''} ${unknown.slice(0, 3).join(', ')} ${unknown.length > 1 ? 'are' : 'is'} unknown here): restore it with that version; nothing was changed`)
  }
  return known.filter(n => !archive.manifest.migrations.applied.includes(n)).length
}

async function restore (): Promise<void> {
  exitOnSignals()
  const { values, positionals } = commandArgs(process.argv.slice(2), { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, USAGE)
  if (values.help) {
    process.stdout.write(`Usage: ${USAGE}\nRestores a backup into the empty DATA_DIR (SQLite) or the empty DATABASE_URL database (PostgreSQL); --force replaces what is there. See docs/backups.md.\n`)
    return
  }
  if (positionals.length !== 1) throw new OpsError(`${positionals.length ? 'one backup file at a time' : 'which backup file?'} Usage: ${USAGE}`, 2)
  const force = values.force === true
  const { dataDir, databaseUrl } = storage()
  const target = databaseUrl ? 'postgres' : 'sqlite'

  const archive = await verifyArchive(positionals[0])
  const m = archive.manifest
  if (m.dialect !== target) {
    throw new OpsError(m.dialect === 'postgres'
      ? `${archive.file} is a PostgreSQL backup, but DATABASE_URL is not set, so the target would be the SQLite database in ${dataDir}: set DATABASE_URL to an empty PostgreSQL database (a backup does not move between SQLite and PostgreSQL); nothing was changed`
      : `${archive.file} is a SQLite backup, but DATABASE_URL is set (${pgTarget(databaseUrl!).shown}), so the target would be PostgreSQL: unset DATABASE_URL and point DATA_DIR at an empty directory (a backup does not move between SQLite and PostgreSQL); nothing was changed`)
  }
  const pending = pendingMigrations(archive)
  const forceHint = force ? '' : npmAteOption('force')

  const where = databaseUrl
    ? await restorePostgres(archive, databaseUrl, { force, forceHint, binOverride: process.env.PG_BIN_DIR || undefined })
    : await restoreSqlite(archive, dataDir, { force, forceHint })
  process.stdout.write(`Restored ${archive.file} (${NAMES[m.dialect]} backup taken ${m.createdAt}) into ${where}: ${summary(m)}\n`)
  if (pending) process.stdout.write(`The server will apply ${pending} newer migration${pending > 1 ? 's' : ''} when it starts.\n`)
}

runCommand('restore', restore)
