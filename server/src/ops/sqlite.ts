/**
 * SQLite backups and restores. The backup copies the live database through SQLite's online backup API
 * (better-sqlite3's db.backup) in a single step, so the copy is one read transaction: a consistent
 * snapshot while the server keeps selling (WAL mode: the read blocks no writer). The copy is checked
 * (quick_check), switched out of WAL mode so that it is one self-contained file, counted, and gzipped.
 * A restore writes the database beside its final place, checks it, then renames it into DATA_DIR.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import zlib from 'node:zlib'
import Database from 'better-sqlite3'
import { SQLITE_FILE, sqlitePathIn } from '../db'
import { memberStream, syncDir, type VerifiedArchive } from './archive'
import { OpsError } from './errors'
import { COUNTED_TABLE, checkCounts, type Snapshot } from './snapshot'

export const SQLITE_PART = 'shop.sqlite.gz'
/** Pages per backup step: all of them, so the whole copy is read in one transaction. */
const ALL_PAGES = 0x7fffffff

const tap = (hash: Hash, count: { n: number }) => new Transform({
  transform (chunk: Buffer, _enc, done) {
    hash.update(chunk)
    count.n += chunk.length
    done(null, chunk)
  }
})

function sqliteCode (err: unknown): string | undefined {
  return (err as { code?: string })?.code
}

/** Row counts of every table, the applied migrations and the media of an open database. */
function describe (db: Database.Database): Pick<Snapshot, 'migrations' | 'rowCounts' | 'media'> {
  const tables = (db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name").all() as Array<{ name: string }>)
    .map(r => r.name)
  if (!tables.includes('kysely_migration')) throw new OpsError('the database has no kysely_migration table: it is not the shop\'s database')
  const rowCounts: Record<string, number> = {}
  for (const t of tables) {
    if (!COUNTED_TABLE.test(t)) throw new OpsError(`the database has a table named ${JSON.stringify(t.slice(0, 60))}, which the shop does not make`)
    rowCounts[t] = Number((db.prepare(`select count(*) as n from "${t}"`).get() as { n: number }).n)
  }
  const migrations = (db.prepare('select name from kysely_migration order by timestamp, name').all() as Array<{ name: string }>).map(r => r.name)
  const media = tables.includes('media')
    ? db.prepare('select count(*) as files, coalesce(sum(length(data)), 0) as bytes from media').get() as { files: number; bytes: number }
    : { files: 0, bytes: 0 }
  return { rowCounts, migrations, media: { files: Number(media.files), bytes: Number(media.bytes) } }
}

/** What DATA_DIR holds besides the database and SQLite's own files (today nothing: media live in the database). */
export function otherFilesIn (dataDir: string): string[] {
  const own = new Set([SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`, `${SQLITE_FILE}-journal`])
  return entriesOf(dataDir).filter(f => !own.has(f))
}

/** Backs up the database of DATA_DIR into `workDir` (the part, gzipped); the source is only read. */
export async function snapshotSqlite (dataDir: string, workDir: string): Promise<Snapshot> {
  const source = sqlitePathIn(dataDir)
  if (!fs.existsSync(source)) throw new OpsError(`there is no database at ${source} (DATA_DIR): nothing to back up`)
  const copy = path.join(workDir, SQLITE_FILE)
  let takenAt = new Date()
  let src: Database.Database | null = null
  try {
    src = new Database(source, { fileMustExist: true, timeout: 10000 })
    // the first step only measures; the second copies every page in one read transaction, which
    // begins after takenAt (each step is a read transaction of its own)
    await src.backup(copy, { progress: () => { takenAt = new Date(); return ALL_PAGES } })
  } catch (err) {
    if (sqliteCode(err) === 'SQLITE_NOTADB') throw new OpsError(`${source} is not a SQLite database`)
    throw err
  } finally {
    src?.close()
  }

  const db = new Database(copy, { fileMustExist: true })
  let described: ReturnType<typeof describe>
  let version: string
  try {
    db.pragma('journal_mode = DELETE')
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new OpsError(`SQLite's check of the copy failed (${String(check).slice(0, 200)}): the database in DATA_DIR may be damaged`)
    described = describe(db)
    version = (db.prepare('select sqlite_version() as v').get() as { v: string }).v
  } finally {
    db.close()
  }

  const gz = path.join(workDir, SQLITE_PART)
  const raw = createHash('sha256')
  const stored = createHash('sha256')
  const rawCount = { n: 0 }
  const storedCount = { n: 0 }
  await pipeline(fs.createReadStream(copy), tap(raw, rawCount), zlib.createGzip({ level: 6 }), tap(stored, storedCount), fs.createWriteStream(gz, { flags: 'wx', mode: 0o600 }))
  await fs.promises.rm(copy)
  return {
    takenAt,
    part: { name: SQLITE_PART, role: 'database', encoding: 'gzip', bytes: storedCount.n, sha256: stored.digest('hex'), contentBytes: rawCount.n, contentSha256: raw.digest('hex') },
    partFile: gz,
    ...described,
    source: { sqlite: version }
  }
}

/** Refuses when another process has the database open (the server): leaving WAL mode needs it alone. */
function assertNotInUse (file: string): void {
  let db: Database.Database | null = null
  try {
    db = new Database(file, { fileMustExist: true, timeout: 1000 })
    db.pragma('journal_mode = DELETE')
  } catch (err) {
    const code = sqliteCode(err)
    if (code === 'SQLITE_BUSY' || code?.startsWith('SQLITE_BUSY_') || code === 'SQLITE_LOCKED') {
      throw new OpsError(`${file} is in use (is the shop's server running on this DATA_DIR?): stop it, then restore; nothing was changed`)
    }
    // not a database, or damaged: it is replaced all the same
  } finally {
    db?.close()
  }
}

/** Files of the data directory, or [] when it does not exist. */
function entriesOf (dataDir: string): string[] {
  try {
    if (!fs.statSync(dataDir).isDirectory()) throw new OpsError(`DATA_DIR ${dataDir} is not a directory`)
    return fs.readdirSync(dataDir).sort()
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw err
  }
}

/**
 * Restores a verified SQLite backup into DATA_DIR: refused when the directory holds anything, unless
 * `force` (then its database is replaced, unless a server has it open). The new database is written to a
 * temporary file in DATA_DIR, its bytes and SHA-256 checked, its tables counted against the manifest,
 * and only then renamed over shop.sqlite; a failure leaves DATA_DIR as it was.
 */
export async function restoreSqlite (archive: VerifiedArchive, dataDir: string, options: { force: boolean; forceHint?: string }): Promise<string> {
  const target = sqlitePathIn(dataDir)
  const entries = entriesOf(dataDir)
  if (entries.length && !options.force) {
    const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? `, ... (${entries.length} entries)` : '')
    throw new OpsError(`the data directory ${dataDir} is not empty (${shown}): restore into an empty DATA_DIR, or add --force to replace its database; nothing was changed${options.forceHint ?? ''}`)
  }
  if (options.force && fs.existsSync(target)) assertNotInUse(target)

  const part = archive.manifest.parts[0]
  fs.mkdirSync(dataDir, { recursive: true })
  const temp = path.join(dataDir, `.restore-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`)
  const cleanup = () => { for (const f of [temp, `${temp}-wal`, `${temp}-shm`, `${temp}-journal`]) fs.rmSync(f, { force: true }) }
  process.once('exit', cleanup)
  try {
    const stored = createHash('sha256')
    const raw = createHash('sha256')
    const storedCount = { n: 0 }
    const rawCount = { n: 0 }
    try {
      await pipeline(memberStream(archive, part.name), tap(stored, storedCount), zlib.createGunzip(), tap(raw, rawCount), fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }))
    } catch (err) {
      if ((err as { code?: string }).code?.startsWith('Z_')) throw new OpsError(`${archive.file}: ${part.name} does not decompress (${(err as Error).message}); nothing was changed`)
      throw err
    }
    // the bytes read now are the bytes verified before (the file did not change meanwhile), and they
    // decompress to the database that was backed up
    if (stored.digest('hex') !== part.sha256 || storedCount.n !== part.bytes) throw new OpsError(`${archive.file} changed while it was being restored; nothing was changed`)
    if (raw.digest('hex') !== part.contentSha256 || rawCount.n !== part.contentBytes) throw new OpsError(`${archive.file}: ${part.name} decompresses to something other than the database backed up; nothing was changed`)

    const fd = fs.openSync(temp, 'r+')
    try { fs.fsyncSync(fd) } finally { fs.closeSync(fd) }
    const db = new Database(temp, { fileMustExist: true })
    try {
      const check = db.pragma('quick_check', { simple: true })
      if (check !== 'ok') throw new OpsError(`SQLite's check of the restored copy failed (${String(check).slice(0, 200)}); nothing was changed`)
      const found = describe(db)
      checkCounts(archive.manifest.rowCounts, found.rowCounts)
      if (JSON.stringify(found.migrations) !== JSON.stringify(archive.manifest.migrations.applied)) throw new OpsError('the restored copy\'s migrations differ from the manifest\'s; nothing was changed')
    } finally {
      db.close()
    }

    // into place: no log of the old database may outlive it (SQLite would replay it onto the new one)
    for (const f of [`${target}-wal`, `${target}-shm`, `${target}-journal`]) fs.rmSync(f, { force: true })
    fs.renameSync(temp, target)
    await syncDir(dataDir)
  } finally {
    cleanup()
    process.removeListener('exit', cleanup)
  }
  return target
}
