/**
 * PostgreSQL backups and restores through PostgreSQL's own programs (Debian:
 * /usr/lib/postgresql/<version>/bin, else PATH; PG_BIN_DIR overrides).
 *
 * Backup: one REPEATABLE READ transaction exports its snapshot; the row counts and migrations are read
 * in it and `pg_dump --snapshot` dumps exactly that state (custom format), so the manifest describes
 * the dump. Restore: `pg_restore` turns the dump into SQL that `psql` runs in ONE transaction, ended by
 * a check of every table's row count against the manifest; any failure rolls everything back. With
 * --force the same transaction first drops what the database held.
 *
 * The password of DATABASE_URL never goes on a command line (the programs get it as PGPASSWORD) and is
 * never printed: messages show the URL without it.
 */
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import pg from 'pg'
import { memberStream, type VerifiedArchive } from './archive'
import { OpsError, keepSecret, oneLine } from './errors'
import { COUNTED_TABLE, type Snapshot } from './snapshot'

export const POSTGRES_PART = 'shop.pgdump'

export interface PgTarget {
  /** The URL as shown to people: no password, no query. */
  shown: string
  /** The URL for libpq's programs, without the password. */
  libpqUrl: string
  /** Environment for the programs (PGPASSWORD when the URL has a password). */
  env: NodeJS.ProcessEnv
  /** The URL for node-postgres. */
  url: string
}

export function pgTarget (url: string): PgTarget {
  let u: URL
  try {
    u = new URL(url)
  } catch {
    throw new OpsError('DATABASE_URL is not a valid URL')
  }
  const password = u.password ? decodeURIComponent(u.password) : u.searchParams.get('password')
  keepSecret(password)
  keepSecret(u.password)
  u.password = ''
  u.searchParams.delete('password')
  const libpqUrl = u.toString()
  const shown = `${u.protocol}//${u.username ? `${u.username}@` : ''}${u.host}${u.pathname}`
  const env: NodeJS.ProcessEnv = { ...process.env, PGCONNECT_TIMEOUT: '10' }
  if (password) env.PGPASSWORD = password
  return { shown, libpqUrl, env, url }
}

async function connect (target: PgTarget): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 10000 })
  client.on('error', () => { /* reported by the query that fails */ })
  try {
    await client.connect()
  } catch (err) {
    throw new OpsError(`cannot connect to PostgreSQL at ${target.shown}: ${(err as Error).message}`)
  }
  return client
}

/** The directory of PostgreSQL's programs for a server of `major`: PG_BIN_DIR, Debian's, or '' (PATH). */
export function pgBinDir (major: number, override?: string): string {
  if (override) {
    if (!fs.existsSync(path.join(override, 'pg_dump'))) throw new OpsError(`PG_BIN_DIR ${override} has no pg_dump`)
    return override
  }
  const root = '/usr/lib/postgresql'
  let versions: number[] = []
  try {
    versions = fs.readdirSync(root).filter(v => /^\d+$/.test(v) && fs.existsSync(path.join(root, v, 'bin', 'pg_dump'))).map(Number).sort((a, b) => a - b)
  } catch { /* not Debian's layout */ }
  // the server's own version; else the oldest newer one (pg_dump refuses a server newer than itself)
  const pick = versions.find(v => v === major) ?? versions.find(v => v > major) ?? versions[versions.length - 1]
  return pick === undefined ? '' : path.join(root, String(pick), 'bin')
}

interface ToolRun { code: number | null; stderr: string }

function tool (bin: string, name: string): string {
  return bin ? path.join(bin, name) : name
}

function missingTool (name: string): OpsError {
  return new OpsError(`${name} was not found: install PostgreSQL's client programs (Debian: apt-get install postgresql-client) or set PG_BIN_DIR`)
}

/** Runs a program to completion, keeping the end of what it says on stderr. */
function run (file: string, args: string[], env: NodeJS.ProcessEnv): Promise<ToolRun & { stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', d => { stdout = (stdout + String(d)).slice(-4000) })
    child.stderr.on('data', d => { stderr = (stderr + String(d)).slice(-4000) })
    child.on('error', err => reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? missingTool(path.basename(file)) : err))
    child.on('close', code => resolve({ code, stdout, stderr }))
  })
}

/** The first ERROR/FATAL line of a program's stderr, else its last line. */
function reason (stderr: string): string {
  const lines = stderr.split('\n').map(l => l.trim()).filter(Boolean)
  return oneLine(lines.find(l => /\b(ERROR|FATAL|error):/.test(l)) ?? lines[lines.length - 1] ?? 'no message')
}

async function serverMajor (client: pg.Client): Promise<{ major: number; version: string }> {
  const r = await client.query<{ num: string; version: string }>("select current_setting('server_version_num') as num, current_setting('server_version') as version")
  return { major: Math.floor(Number(r.rows[0].num) / 10000), version: r.rows[0].version }
}

/** Tables of schema public, by name. */
async function publicTables (client: pg.Client): Promise<string[]> {
  const r = await client.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public' order by tablename")
  return r.rows.map(x => x.name)
}

/** Dumps the database of DATABASE_URL into `workDir`, with the counts and migrations of the same snapshot. */
export async function snapshotPostgres (url: string, workDir: string, binOverride?: string): Promise<Snapshot> {
  const target = pgTarget(url)
  const client = await connect(target)
  try {
    await client.query('begin isolation level repeatable read, read only')
    // the transaction's snapshot is taken by its first statement, this one: what committed before it began is in
    const takenAt = new Date()
    const snapshot = (await client.query<{ id: string }>('select pg_export_snapshot() as id')).rows[0].id
    const tables = await publicTables(client)
    if (!tables.includes('kysely_migration')) throw new OpsError(`the database at ${target.shown} has no kysely_migration table: it is not the shop's database (or it is empty)`)
    const rowCounts: Record<string, number> = {}
    for (const t of tables) {
      if (!COUNTED_TABLE.test(t)) throw new OpsError(`the database has a table named ${JSON.stringify(t.slice(0, 60))}, which the shop does not make`)
      rowCounts[t] = Number((await client.query<{ n: string }>(`select count(*) as n from public."${t}"`)).rows[0].n)
    }
    const migrations = (await client.query<{ name: string }>('select name from public.kysely_migration order by timestamp, name')).rows.map(r => r.name)
    const media = tables.includes('media')
      ? (await client.query<{ files: string; bytes: string }>('select count(*) as files, coalesce(sum(octet_length(data)), 0) as bytes from public.media')).rows[0]
      : { files: '0', bytes: '0' }
    const { major, version } = await serverMajor(client)
    const bin = pgBinDir(major, binOverride)

    const dumpVersion = await run(tool(bin, 'pg_dump'), ['--version'], target.env)
    const file = path.join(workDir, POSTGRES_PART)
    const dumped = await run(tool(bin, 'pg_dump'), ['--format=custom', `--snapshot=${snapshot}`, '--no-password', `--file=${file}`, `--dbname=${target.libpqUrl}`], target.env)
    if (dumped.code !== 0) throw new OpsError(`pg_dump failed: ${reason(dumped.stderr)}`)
    await client.query('commit')

    const hash = createHash('sha256')
    await pipeline(fs.createReadStream(file), hash)
    return {
      takenAt,
      part: { name: POSTGRES_PART, role: 'database', encoding: 'pg_dump-custom', bytes: fs.statSync(file).size, sha256: hash.digest('hex') },
      partFile: file,
      migrations,
      rowCounts,
      media: { files: Number(media.files), bytes: Number(media.bytes) },
      source: { postgres: version, pg_dump: dumpVersion.stdout.trim() }
    }
  } finally {
    await client.end().catch(() => {})
  }
}

/** Drops everything a database holds (extensions, schemas other than public, and public's objects). */
const DROP_EVERYTHING = `
DO $drop$
DECLARE r record;
BEGIN
  FOR r IN SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' LOOP
    EXECUTE format('DROP EXTENSION IF EXISTS %I CASCADE', r.extname);
  END LOOP;
  FOR r IN SELECT nspname FROM pg_namespace WHERE nspname NOT IN ('public', 'information_schema') AND nspname NOT LIKE 'pg\\_%' LOOP
    EXECUTE format('DROP SCHEMA IF EXISTS %I CASCADE', r.nspname);
  END LOOP;
  FOR r IN SELECT format('%I.%I', 'public', c.relname) AS name,
                  CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS kind
             FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S', 'f')
              -- an identity column's sequence goes with its table (it cannot be dropped alone)
              AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'i')
            ORDER BY CASE c.relkind WHEN 'r' THEN 0 WHEN 'p' THEN 0 WHEN 'f' THEN 1 WHEN 'v' THEN 2 WHEN 'm' THEN 2 ELSE 3 END, c.relname LOOP
    EXECUTE format('DROP %s IF EXISTS %s CASCADE', r.kind, r.name);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure::text AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' LOOP
    EXECUTE format('DROP ROUTINE IF EXISTS %s CASCADE', r.sig);
  END LOOP;
  FOR r IN SELECT format('%I.%I', 'public', t.typname) AS name FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
            WHERE n.nspname = 'public' AND (t.typtype IN ('e', 'd', 'r') OR (t.typtype = 'c' AND (SELECT relkind FROM pg_class WHERE oid = t.typrelid) = 'c')) LOOP
    EXECUTE format('DROP TYPE IF EXISTS %s CASCADE', r.name);
  END LOOP;
END $drop$;
`

/** Checks, inside the restoring transaction, that every table has the rows the manifest counted. */
function countCheck (rowCounts: Record<string, number>): string {
  // the names were checked against COUNTED_TABLE (archive.ts), the counts are integers: no quoting issue
  const expected = JSON.stringify(rowCounts)
  return `
DO $check$
DECLARE expected jsonb := '${expected}'::jsonb; t text; n bigint;
BEGIN
  FOR t IN SELECT jsonb_object_keys(expected) LOOP
    IF to_regclass(format('public.%I', t)) IS NULL THEN
      RAISE EXCEPTION 'restore check: the restored database has no table %', t;
    END IF;
    EXECUTE format('SELECT count(*) FROM public.%I', t) INTO n;
    IF n <> (expected->>t)::bigint THEN
      RAISE EXCEPTION 'restore check: table % has % rows, the backup counted %', t, n, expected->>t;
    END IF;
  END LOOP;
END $check$;
`
}

/**
 * Restores a verified PostgreSQL backup into the database of DATABASE_URL: refused when it holds any
 * table, sequence or view, unless `force` (then, with no other session on it, what it holds is dropped
 * in the restoring transaction).
 */
export async function restorePostgres (archive: VerifiedArchive, url: string, options: { force: boolean; forceHint?: string; binOverride?: string }): Promise<string> {
  const target = pgTarget(url)
  const part = archive.manifest.parts[0]
  const client = await connect(target)
  let major: number
  let dropFirst = false
  try {
    const held = await client.query<{ name: string }>(`
      select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'S', 'f') and n.nspname not in ('pg_catalog', 'information_schema')
         and n.nspname not like 'pg\\_%' order by 1`)
    if (held.rows.length) {
      if (!options.force) {
        const shown = held.rows.slice(0, 3).map(r => r.name).join(', ') + (held.rows.length > 3 ? `, ... (${held.rows.length} in all)` : '')
        throw new OpsError(`the database ${target.shown} is not empty (${shown}): restore into an empty database, or add --force to replace what it holds; nothing was changed${options.forceHint ?? ''}`)
      }
      const others = await client.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')
      if (Number(others.rows[0].n) > 0) {
        throw new OpsError(`${others.rows[0].n} other session(s) are connected to ${target.shown} (is the shop's server running on it?): stop them, then restore; nothing was changed`)
      }
      dropFirst = true
    }
    major = (await serverMajor(client)).major
  } finally {
    await client.end().catch(() => {})
  }

  const bin = pgBinDir(major, options.binOverride)
  const temp = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-restore-'))
  try {
    // the dump as pg_restore will read it, checked again against the manifest (the file may have changed)
    const dump = path.join(temp, POSTGRES_PART)
    const hash = createHash('sha256')
    await pipeline(memberStream(archive, part.name), async function * (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) { hash.update(chunk); yield chunk }
    }, fs.createWriteStream(dump, { flags: 'wx', mode: 0o600 }))
    if (hash.digest('hex') !== part.sha256) throw new OpsError(`${archive.file} changed while it was being restored; nothing was changed`)

    await restoreInOneTransaction(bin, dump, target, dropFirst, countCheck(archive.manifest.rowCounts))
  } finally {
    fs.rmSync(temp, { recursive: true, force: true })
  }
  return target.shown
}

/** pg_restore's SQL, piped into psql between BEGIN and (only if all went well) the check and COMMIT. */
async function restoreInOneTransaction (bin: string, dump: string, target: PgTarget, dropFirst: boolean, check: string): Promise<void> {
  const restore = spawn(tool(bin, 'pg_restore'), ['--format=custom', '--no-owner', '--no-privileges', '--file=-', dump], { env: target.env, stdio: ['ignore', 'pipe', 'pipe'] })
  const psql = spawn(tool(bin, 'psql'), ['-X', '-q', '--no-password', '-v', 'ON_ERROR_STOP=1', '-d', target.libpqUrl, '-f', '-'], { env: target.env, stdio: ['pipe', 'ignore', 'pipe'] })
  const finished = (child: typeof restore | typeof psql, name: string) => new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    let stderr = ''
    child.stderr!.on('data', d => { stderr = (stderr + String(d)).slice(-4000) })
    child.on('error', err => reject((err as NodeJS.ErrnoException).code === 'ENOENT' ? missingTool(name) : err))
    child.on('close', code => resolve({ code, stderr }))
  })
  const restored = finished(restore, 'pg_restore')
  const applied = finished(psql, 'psql')
  // psql stops at the first error (ON_ERROR_STOP): pg_restore's writes then break, and their exit codes say so
  psql.stdin.on('error', () => {})
  restore.stdout.on('error', () => {})
  psql.stdin.write(`SET client_min_messages = warning;\nBEGIN;\n${dropFirst ? DROP_EVERYTHING : ''}\n`)
  restore.stdout.pipe(psql.stdin, { end: false })
  // COMMIT only once all of pg_restore's SQL arrived; without it psql ends and the transaction rolls back
  const [r, p] = await Promise.all([
    restored.then(res => { psql.stdin.end(res.code === 0 ? `${check}\nCOMMIT;\n` : '\n'); return res }, err => { psql.stdin.end('\n'); throw err }),
    // psql stopped (an error): pg_restore, no longer read, would wait forever
    applied.then(res => { if (restore.exitCode === null) restore.kill(); return res }, err => { restore.kill(); throw err })
  ])
  if (p.code !== 0) throw new OpsError(`the restore failed and was rolled back, nothing was changed: ${reason(p.stderr)}`)
  if (r.code !== 0) throw new OpsError(`pg_restore failed, nothing was changed: ${reason(r.stderr)}`)
}
