/**
 * npm run backup [-- --out FILE]
 *
 * Writes one file holding the shop's database and its media (uploaded images live in the database's
 * media table; DATA_DIR holds nothing else): the SQLite database of DATA_DIR through SQLite's online
 * backup API, or the PostgreSQL database of DATABASE_URL through pg_dump. Both are consistent snapshots
 * taken while the shop keeps selling. Default FILE: backups/shop-backup-<dialect>-<time>.tar in the
 * project directory. The file is written aside, checked, then put in place; it is readable by its
 * owner only. Format: ./archive.ts and docs/backups.md.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { FORMAT, FORMAT_VERSION, MANIFEST, SUMS, sumsText, verifyArchive, writeArchive, type Manifest } from './archive'
import { commandArgs, exitOnSignals, storage } from './cli'
import { OpsError, runCommand } from './errors'
import { snapshotPostgres } from './postgres'
import { summary, type Snapshot } from './snapshot'
import { otherFilesIn, snapshotSqlite } from './sqlite'

const USAGE = 'npm run backup [-- --out FILE]'
const PROJECT_DIR = path.resolve(__dirname, '..', '..', '..')
export const DEFAULT_DIR = path.join(PROJECT_DIR, 'backups')

function stamp (d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-')
}

/** backups/shop-backup-<dialect>-<time>.tar, with -2, -3 ... when a backup of the same second exists. */
function defaultFile (dialect: string, now: Date): string {
  fs.mkdirSync(DEFAULT_DIR, { recursive: true, mode: 0o700 })
  const base = path.join(DEFAULT_DIR, `shop-backup-${dialect}-${stamp(now)}`)
  for (let i = 1; ; i++) {
    const file = i === 1 ? `${base}.tar` : `${base}-${i}.tar`
    if (!fs.existsSync(file)) return file
  }
}

function size (bytes: number): string {
  return bytes >= 1048576 ? `${(bytes / 1048576).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`
}

async function backup (): Promise<void> {
  exitOnSignals()
  const { values, positionals } = commandArgs(process.argv.slice(2), { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } }, USAGE)
  if (values.help) {
    process.stdout.write(`Usage: ${USAGE}\nBacks up the shop's database (DATABASE_URL, else DATA_DIR) and its media into one file. See docs/backups.md.\n`)
    return
  }
  if (positionals.length) throw new OpsError(`unexpected argument ${JSON.stringify(positionals[0])}. Usage: ${USAGE}`, 2)
  const { dataDir, databaseUrl } = storage()
  const dialect = databaseUrl ? 'postgres' : 'sqlite'

  let out: string
  if (values.out !== undefined) {
    if (!values.out.trim()) throw new OpsError(`--out needs a file name. Usage: ${USAGE}`, 2)
    out = path.resolve(values.out)
    if (fs.existsSync(out)) throw new OpsError(`${out} already exists: choose another --out (a backup never overwrites a file)`)
    if (!fs.existsSync(path.dirname(out))) throw new OpsError(`the directory ${path.dirname(out)} does not exist`)
  } else {
    out = defaultFile(dialect, new Date())
  }

  // the parts are made beside the output, on the same disk, and removed however this ends
  const work = fs.mkdtempSync(path.join(path.dirname(out), '.shop-backup-'))
  const cleanup = () => {
    fs.rmSync(work, { recursive: true, force: true })
    fs.rmSync(`${out}.partial`, { force: true })
  }
  process.once('exit', cleanup)
  try {
    const snap: Snapshot = databaseUrl
      ? await snapshotPostgres(databaseUrl, work, process.env.PG_BIN_DIR || undefined)
      : await snapshotSqlite(dataDir, work)
    // the shop keeps nothing else in DATA_DIR; should something appear there, say that it is not carried
    const others = databaseUrl ? [] : otherFilesIn(dataDir)
    if (others.length) process.stderr.write(`backup: note: DATA_DIR holds files the backup does not carry: ${others.slice(0, 5).join(', ')}${others.length > 5 ? ', ...' : ''}\n`)
    // with MEDIA_STORE=s3 the media rows hold no bytes: the pictures are in the bucket, which this file
    // does not carry (docs/backups.md: keep the bucket versioned and replicated)
    const storedIn = process.env.MEDIA_STORE === 's3' ? 's3' : 'database'
    if (storedIn === 's3') process.stderr.write('backup: note: MEDIA_STORE=s3: the media files are in the bucket, not in this backup (only their rows are); keep the bucket versioned and replicated\n')
    const manifest: Manifest = {
      format: FORMAT,
      formatVersion: FORMAT_VERSION,
      dialect,
      createdAt: snap.takenAt.toISOString(),
      migrations: { count: snap.migrations.length, latest: snap.migrations[snap.migrations.length - 1] ?? null, applied: snap.migrations },
      rowCounts: snap.rowCounts,
      media: { ...snap.media, storedIn },
      source: snap.source,
      parts: [snap.part]
    }
    const manifestBytes = Buffer.from(JSON.stringify(manifest, null, 2) + '\n')
    const sums = sumsText([[MANIFEST, createHash('sha256').update(manifestBytes).digest('hex')], [snap.part.name, snap.part.sha256]])
    const written = await writeArchive(out, [
      { name: MANIFEST, data: manifestBytes },
      { name: SUMS, data: Buffer.from(sums) },
      { name: snap.part.name, file: snap.partFile }
    ], snap.takenAt)
    // read back as a restore would read it; a file that does not read back is not left behind
    try {
      await verifyArchive(out)
    } catch (err) {
      fs.rmSync(out, { force: true })
      throw new OpsError(`the backup did not read back, so it was removed: ${(err as Error).message}`)
    }
    process.stdout.write(`Backup written: ${out} (${size(written)}; ${dialect}, taken ${manifest.createdAt}; ${summary(manifest)})\n`)
  } finally {
    cleanup()
    process.removeListener('exit', cleanup)
  }
}

runCommand('backup', backup)
