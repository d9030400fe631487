/**
 * The backup file: a plain POSIX tar (ustar) archive, so `tar tf` lists it and `tar xf` opens it, holding
 *
 *   manifest.json   what the backup is (format, dialect, time, migrations, row counts, parts)
 *   SHA256SUMS      the SHA-256 of manifest.json and of each part, as `sha256sum -c` reads it
 *   <parts>         shop.sqlite.gz (SQLite, gzip) or shop.pgdump (PostgreSQL, pg_dump custom format)
 *
 * in that order and nothing else. The reader here is strict so that any damaged byte is caught before
 * a restore touches anything: each header's checksum (and its exact layout), the zero padding after each
 * member and the two zero blocks at the end (with nothing after them), SHA256SUMS line by line, and each
 * member's SHA-256. docs/backups.md describes the format for people.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import { OpsError } from './errors'

export const FORMAT = 'blindbox-shop-backup'
export const FORMAT_VERSION = 1
export const MANIFEST = 'manifest.json'
export const SUMS = 'SHA256SUMS'

const BLOCK = 512
const CHUNK = 1024 * 1024

export type BackupDialect = 'sqlite' | 'postgres'

export interface ManifestPart {
  /** The member's name in the archive. */
  name: string
  /** What it holds: the whole database (with the uploaded media, which live in its media table). */
  role: 'database'
  /** How it is stored: `gzip` (SQLite file, gzip-compressed) or `pg_dump-custom` (compressed by pg_dump). */
  encoding: 'gzip' | 'pg_dump-custom'
  /** Size and SHA-256 of the member as stored. */
  bytes: number
  sha256: string
  /** gzip only: size and SHA-256 of the SQLite file once decompressed. */
  contentBytes?: number
  contentSha256?: string
}

export interface Manifest {
  format: typeof FORMAT
  formatVersion: number
  dialect: BackupDialect
  /** When the snapshot was taken (ISO 8601, UTC): every transaction committed before this instant is in it. */
  createdAt: string
  /** The migrations applied in the snapshot (kysely_migration), oldest first. */
  migrations: { count: number; latest: string | null; applied: string[] }
  /** Rows of every table of the snapshot (PostgreSQL: schema public), by table name. */
  rowCounts: Record<string, number>
  /** Uploaded media (the media table): how many and their bytes. */
  media: { files: number; bytes: number; storedIn: 'database' | 's3' }
  /** What made the snapshot, for the curious (versions of SQLite, PostgreSQL, pg_dump). */
  source: Record<string, string>
  parts: ManifestPart[]
}

const HEX64 = /^[0-9a-f]{64}$/
const TABLE = /^[a-z_][a-z0-9_]{0,62}$/
const PART_NAME = /^[a-z0-9][a-z0-9._-]{0,90}$/

/** Streams a file's bytes (or a range of them) through SHA-256. */
export async function sha256File (file: string, start = 0, length?: number): Promise<string> {
  const handle = await fs.promises.open(file, 'r')
  try {
    return await hashRange(handle, start, length ?? (await handle.stat()).size - start)
  } finally {
    await handle.close()
  }
}

async function hashRange (handle: fs.promises.FileHandle, start: number, length: number): Promise<string> {
  const hash = createHash('sha256')
  const buf = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(length, 1)))
  let done = 0
  while (done < length) {
    const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, length - done), start + done)
    if (bytesRead === 0) throw new OpsError('the file ended early')
    hash.update(buf.subarray(0, bytesRead))
    done += bytesRead
  }
  return hash.digest('hex')
}

// ---- writing ----------------------------------------------------------------------------------------

function octal (value: number, width: number): string {
  // width - 1 digits then NUL, as tar writes them
  return value.toString(8).padStart(width - 1, '0') + '\0'
}

function tarHeader (name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100 || !/^[\x21-\x7e]+$/.test(name)) throw new Error(`tar member name ${name} is not short ASCII`)
  const h = Buffer.alloc(BLOCK, 0)
  h.write(name, 0, 'ascii')
  h.write(octal(0o600, 8), 100, 'ascii') // mode
  h.write(octal(0, 8), 108, 'ascii') // uid
  h.write(octal(0, 8), 116, 'ascii') // gid
  if (size < 8 ** 11) {
    h.write(octal(size, 12), 124, 'ascii')
  } else {
    // GNU base-256 for members of 8 GiB and more: a set high bit, then the size big-endian
    h[124] = 0x80
    h.writeBigUInt64BE(BigInt(size), 124 + 4)
  }
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii')
  h.write(' '.repeat(8), 148, 'ascii') // the checksum counts its own field as spaces
  h.write('0', 156, 'ascii') // a regular file
  h.write('ustar\0', 257, 'ascii')
  h.write('00', 263, 'ascii')
  let sum = 0
  for (const b of h) sum += b
  h.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'ascii')
  return h
}

export interface ArchiveInput { name: string; file?: string; data?: Buffer }

async function writeAll (out: fs.promises.FileHandle, data: Buffer): Promise<void> {
  let done = 0
  while (done < data.length) done += (await out.write(data, done, data.length - done)).bytesWritten
}

/**
 * Writes the archive to `target`, which must not exist: first into `<target>.partial`, flushed to disk,
 * then linked into place (never replacing a file that appeared meanwhile) and the directory flushed.
 */
export async function writeArchive (target: string, members: ArchiveInput[], mtime = new Date()): Promise<number> {
  const partial = `${target}.partial`
  const out = await fs.promises.open(partial, 'wx', 0o600)
  let total = 0
  try {
    const buf = Buffer.allocUnsafe(CHUNK)
    for (const m of members) {
      const size = m.data ? m.data.length : (await fs.promises.stat(m.file!)).size
      await writeAll(out, tarHeader(m.name, size, mtime))
      if (m.data) {
        await writeAll(out, m.data)
      } else {
        const src = await fs.promises.open(m.file!, 'r')
        try {
          let done = 0
          while (done < size) {
            const { bytesRead } = await src.read(buf, 0, Math.min(CHUNK, size - done), done)
            if (bytesRead === 0) throw new Error(`${m.file} shrank while it was archived`)
            await writeAll(out, buf.subarray(0, bytesRead))
            done += bytesRead
          }
        } finally {
          await src.close()
        }
      }
      const pad = (BLOCK - (size % BLOCK)) % BLOCK
      if (pad) await writeAll(out, Buffer.alloc(pad, 0))
      total += BLOCK + size + pad
    }
    await writeAll(out, Buffer.alloc(2 * BLOCK, 0))
    total += 2 * BLOCK
    await out.sync()
  } catch (err) {
    await out.close().catch(() => {})
    await fs.promises.rm(partial, { force: true })
    throw err
  }
  await out.close()
  try {
    await fs.promises.link(partial, target)
  } catch (err) {
    await fs.promises.rm(partial, { force: true })
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new OpsError(`${target} already exists: choose another --out`)
    throw err
  }
  await fs.promises.rm(partial, { force: true })
  await syncDir(path.dirname(target))
  return total
}

/** Flushes a directory's entries (a new or renamed file) to disk. */
export async function syncDir (dir: string): Promise<void> {
  const d = await fs.promises.open(dir, 'r')
  try { await d.sync() } catch { /* some file systems cannot flush a directory */ } finally { await d.close() }
}

/** The SHA256SUMS text of `sums` (name -> hex), in the given order. */
export function sumsText (sums: Array<[string, string]>): string {
  return sums.map(([name, hex]) => `${hex}  ${name}\n`).join('')
}

// ---- reading ----------------------------------------------------------------------------------------

export interface ArchiveMember { name: string; offset: number; size: number; sha256: string }

export interface VerifiedArchive { file: string; manifest: Manifest; members: Map<string, ArchiveMember> }

function damaged (file: string, what: string): OpsError {
  return new OpsError(`${file} is damaged or not a shop backup: ${what}; nothing was changed`)
}

function parseSize (h: Buffer): number | null {
  if (h[124] === 0x80) {
    for (let i = 125; i < 128; i++) if (h[i] !== 0) return null
    const n = h.readBigUInt64BE(128)
    return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : null
  }
  const field = h.toString('ascii', 124, 136)
  return /^[0-7]{11}\0$/.test(field) ? parseInt(field.slice(0, 11), 8) : null
}

function headerProblem (h: Buffer): string | null {
  const stored = h.toString('ascii', 148, 156)
  if (!/^[0-7]{6}\0 $/.test(stored)) return 'a header checksum is malformed'
  let sum = 0
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i]
  if (sum !== parseInt(stored.slice(0, 6), 8)) return 'a header checksum does not match'
  if (h.toString('ascii', 257, 265) !== 'ustar\u000000') return 'a header is not a ustar header'
  if (h.toString('ascii', 156, 157) !== '0') return 'a member is not a regular file'
  return null
}

function memberName (h: Buffer): string | null {
  const end = h.indexOf(0, 0)
  const raw = h.toString('ascii', 0, end === -1 || end > 100 ? 100 : end)
  if (h.subarray(raw.length, 100).some(b => b !== 0)) return null
  if (h.subarray(345, 500).some(b => b !== 0)) return null // no ustar prefix: names are short
  return raw
}

async function allZero (handle: fs.promises.FileHandle, start: number, length: number): Promise<boolean> {
  if (length === 0) return true
  const buf = Buffer.alloc(length)
  const { bytesRead } = await handle.read(buf, 0, length, start)
  return bytesRead === length && buf.every(b => b === 0)
}

/**
 * Opens a backup and checks every byte of it (structure, SHA256SUMS, each member's SHA-256, the
 * manifest's fields); throws an OpsError saying what is wrong. Reads the file, changes nothing.
 */
export async function verifyArchive (file: string): Promise<VerifiedArchive> {
  let handle: fs.promises.FileHandle
  try {
    const stat = await fs.promises.stat(file)
    if (!stat.isFile()) throw new OpsError(`${file} is not a file`)
    handle = await fs.promises.open(file, 'r')
  } catch (err) {
    if (err instanceof OpsError) throw err
    const code = (err as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new OpsError(`no such file: ${file}`)
    if (code === 'EACCES') throw new OpsError(`cannot read ${file}: permission denied`)
    throw new OpsError(`cannot open ${file}: ${(err as Error).message}`)
  }
  try {
    const size = (await handle.stat()).size
    if (size < 3 * BLOCK || size % BLOCK !== 0) throw damaged(file, 'its size is not that of a tar archive')
    const members = new Map<string, ArchiveMember>()
    const order: string[] = []
    let pos = 0
    const h = Buffer.alloc(BLOCK)
    for (;;) {
      if (pos + BLOCK > size) throw damaged(file, 'it ends without the end-of-archive blocks')
      await handle.read(h, 0, BLOCK, pos)
      if (h.every(b => b === 0)) {
        // the end: two zero blocks, then nothing
        if (!(await allZero(handle, pos + BLOCK, BLOCK)) || pos + 2 * BLOCK !== size) throw damaged(file, 'there are bytes after the end of the archive')
        break
      }
      const problem = headerProblem(h)
      if (problem) throw damaged(file, problem)
      const name = memberName(h)
      const length = parseSize(h)
      if (name === null || length === null) throw damaged(file, 'a header is malformed')
      if (members.has(name)) throw damaged(file, `${name} appears twice`)
      const offset = pos + BLOCK
      const pad = (BLOCK - (length % BLOCK)) % BLOCK
      if (offset + length + pad > size) throw damaged(file, `${name} is cut short (the file is truncated)`)
      if (!(await allZero(handle, offset + length, pad))) throw damaged(file, `the padding after ${name} is not zero`)
      members.set(name, { name, offset, size: length, sha256: await hashRange(handle, offset, length) })
      order.push(name)
      pos = offset + length + pad
    }

    if (order[0] !== MANIFEST || order[1] !== SUMS) throw damaged(file, `it does not start with ${MANIFEST} and ${SUMS}`)
    const read = async (m: ArchiveMember, max: number) => {
      if (m.size > max) throw damaged(file, `${m.name} is too large`)
      const buf = Buffer.alloc(m.size)
      await handle.read(buf, 0, m.size, m.offset)
      return buf.toString('utf8')
    }
    // SHA256SUMS: exactly one line per other member, in archive order
    const sums = await read(members.get(SUMS)!, 64 * 1024)
    const expected = order.filter(n => n !== SUMS)
    const lines = sums.split('\n')
    if (lines.pop() !== '' || lines.length !== expected.length) throw damaged(file, `${SUMS} does not list every member`)
    for (const [i, line] of lines.entries()) {
      const m = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line)
      if (!m || m[2] !== expected[i]) throw damaged(file, `${SUMS} line ${i + 1} is malformed`)
      if (members.get(m[2])!.sha256 !== m[1]) throw damaged(file, `the SHA-256 of ${m[2]} does not match ${SUMS}`)
    }

    let manifest: Manifest
    try {
      manifest = JSON.parse(await read(members.get(MANIFEST)!, 4 * 1024 * 1024)) as Manifest
    } catch (err) {
      if (err instanceof OpsError) throw err
      throw damaged(file, `${MANIFEST} is not JSON`)
    }
    const problem = manifestProblem(manifest)
    if (problem) throw damaged(file, `${MANIFEST}: ${problem}`)
    if (manifest.formatVersion > FORMAT_VERSION) {
      throw new OpsError(`${file} is a backup of format version ${manifest.formatVersion}, made by a newer version of the shop; this one reads version ${FORMAT_VERSION}: restore it with the newer version`)
    }
    const partNames = manifest.parts.map(p => p.name)
    if (JSON.stringify(partNames) !== JSON.stringify(order.slice(2))) throw damaged(file, `the members are not the parts ${MANIFEST} lists`)
    for (const p of manifest.parts) {
      const m = members.get(p.name)!
      if (m.size !== p.bytes || m.sha256 !== p.sha256) throw damaged(file, `${p.name} differs from what ${MANIFEST} records`)
    }
    return { file, manifest, members }
  } finally {
    await handle.close()
  }
}

const isCount = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0

/** What is wrong with a parsed manifest, or null. */
function manifestProblem (m: Manifest): string | null {
  if (!m || typeof m !== 'object' || Array.isArray(m)) return 'not an object'
  if (m.format !== FORMAT) return `format is not ${FORMAT}`
  if (!Number.isSafeInteger(m.formatVersion) || m.formatVersion < 1) return 'formatVersion is not a positive integer'
  if (m.formatVersion > FORMAT_VERSION) return null // told apart by the caller, with its own message
  if (m.dialect !== 'sqlite' && m.dialect !== 'postgres') return 'dialect is neither sqlite nor postgres'
  if (typeof m.createdAt !== 'string' || Number.isNaN(Date.parse(m.createdAt))) return 'createdAt is not a time'
  const mig = m.migrations
  if (!mig || !Array.isArray(mig.applied) || !mig.applied.every(n => typeof n === 'string' && /^[\w.-]{1,200}$/.test(n))) return 'migrations.applied is not a list of names'
  if (mig.count !== mig.applied.length || mig.latest !== (mig.applied[mig.applied.length - 1] ?? null)) return 'migrations disagree with each other'
  if (!m.rowCounts || typeof m.rowCounts !== 'object' || Array.isArray(m.rowCounts)) return 'rowCounts is not an object'
  for (const [t, n] of Object.entries(m.rowCounts)) if (!TABLE.test(t) || !isCount(n)) return `rowCounts.${t.slice(0, 40)} is not a table's row count`
  if (!m.media || !isCount(m.media.files) || !isCount(m.media.bytes) || (m.media.storedIn !== 'database' && m.media.storedIn !== 's3')) return 'media is malformed'
  if (!m.source || typeof m.source !== 'object' || !Object.values(m.source).every(v => typeof v === 'string')) return 'source is malformed'
  if (!Array.isArray(m.parts) || m.parts.length !== 1) return 'parts does not hold exactly one database'
  for (const p of m.parts) {
    if (!p || typeof p.name !== 'string' || !PART_NAME.test(p.name) || p.name === MANIFEST || p.name === SUMS) return 'a part has a bad name'
    if (p.role !== 'database') return `part ${p.name} has an unknown role`
    if (!isCount(p.bytes) || typeof p.sha256 !== 'string' || !HEX64.test(p.sha256)) return `part ${p.name} has no size or SHA-256`
    const wanted = m.dialect === 'sqlite' ? 'gzip' : 'pg_dump-custom'
    if (p.encoding !== wanted) return `part ${p.name} is not ${wanted} as a ${m.dialect} backup's database is`
    if (p.encoding === 'gzip' && (!isCount(p.contentBytes) || typeof p.contentSha256 !== 'string' || !HEX64.test(p.contentSha256))) return `part ${p.name} has no content size or SHA-256`
  }
  return null
}

/** The bytes of one member, as a stream. */
export function memberStream (archive: VerifiedArchive, name: string): Readable {
  const m = archive.members.get(name)
  if (!m) throw new Error(`no member ${name}`)
  // createReadStream's end is inclusive: an empty member is an empty stream
  return m.size ? fs.createReadStream(archive.file, { start: m.offset, end: m.offset + m.size - 1 }) : Readable.from([])
}
