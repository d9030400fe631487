/**
 * Where the bytes of media live (MEDIA_STORE): in the database (the default; table media's data column)
 * or in S3-compatible object storage (the bucket, under media/<sha256>.<ext>). Either way table media
 * keeps one row per file with its metadata (type, extension, size, width and height, who uploaded it,
 * when), so lookups, the editor's checks and a backup of the metadata are the same in both modes; with
 * object storage the row's data is empty.
 *
 * Every write and read of media bytes goes through a MediaStore: uploads (http/upload.ts), speech
 * (routes/speech.ts), PDF pages (domain/tasks.ts) and GET /media/u/... (http/media.ts). The object
 * store's outages are ProviderUnavailableErrors for the provider "media" (a 502 through providerCall).
 */
import { iso, type Clock } from '../../core/clock'
import type { Db } from '../../db'
import { S3_TIMEOUT_MS, type S3Client } from '../../providers/s3'

/** What table media says of a file. */
export interface MediaInfo {
  contentType: string
  ext: string
  size: number
  width: number
  height: number
}

export interface StoredMedia extends MediaInfo { bytes: Buffer }

/** Who keeps the file and when (the row's uploaded_by and created_at). */
export interface MediaMeta {
  width: number
  height: number
  uploadedBy: number | null
  createdAt: string
}

export interface MediaStore {
  readonly kind: 'database' | 's3'
  /** Keeps the bytes under their SHA-256 (the caller's hash of `bytes`); the same file again keeps nothing new. */
  put (sha256: string, ext: string, contentType: string, bytes: Buffer, meta: MediaMeta): Promise<void>
  /** The file with its bytes, or null when there is none (or, `ext` given, when it has another extension). */
  get (sha256: string, ext?: string): Promise<StoredMedia | null>
  /** The file's metadata without its bytes, or null. */
  info (sha256: string): Promise<MediaInfo | null>
  has (sha256: string): Promise<boolean>
  /** Deletes the bytes kept outside the row (the bucket's object); nothing to do when they were in the row. */
  removeObject (sha256: string, ext: string): Promise<void>
}

/** The object key of a file in the bucket. */
export const objectKey = (sha256: string, ext: string) => `media/${sha256}.${ext}`

const infoOf = (row: { content_type: string; ext: string; size: number; width: number; height: number }): MediaInfo => ({
  contentType: row.content_type, ext: row.ext, size: Number(row.size), width: Number(row.width), height: Number(row.height)
})

async function infoRow (db: Db, sha256: string): Promise<MediaInfo | null> {
  const row = await db.selectFrom('media').select(['content_type', 'ext', 'size', 'width', 'height']).where('sha256', '=', sha256).executeTakeFirst()
  return row ? infoOf(row) : null
}

async function insertRow (db: Db, sha256: string, ext: string, contentType: string, data: Buffer, size: number, meta: MediaMeta): Promise<void> {
  // a concurrent twin inserts nothing
  await db.insertInto('media').values({
    sha256, content_type: contentType, ext, data, size, width: meta.width, height: meta.height,
    uploaded_by: meta.uploadedBy, created_at: meta.createdAt
  }).onConflict(oc => oc.column('sha256').doNothing()).execute()
}

/** The bytes in the row itself (MEDIA_STORE=database, the default). */
export class DatabaseMediaStore implements MediaStore {
  readonly kind = 'database' as const
  constructor (private readonly db: Db) {}

  async put (sha256: string, ext: string, contentType: string, bytes: Buffer, meta: MediaMeta): Promise<void> {
    await insertRow(this.db, sha256, ext, contentType, bytes, bytes.length, meta)
  }

  async get (sha256: string, ext?: string): Promise<StoredMedia | null> {
    const row = await this.db.selectFrom('media').select(['content_type', 'ext', 'data', 'size', 'width', 'height']).where('sha256', '=', sha256).executeTakeFirst()
    if (!row || (ext !== undefined && row.ext !== ext)) return null
    const bytes = Buffer.from(row.data)
    // a row written with MEDIA_STORE=s3 holds no bytes: they are in the bucket, which this mode does not read
    if (!bytes.length && Number(row.size) > 0) return null
    return { ...infoOf(row), bytes }
  }

  info (sha256: string) { return infoRow(this.db, sha256) }
  async has (sha256: string) { return (await infoRow(this.db, sha256)) !== null }
  // the bytes were in the row, which is gone
  async removeObject (): Promise<void> {}
}

/** A claim older than this is a pass that died mid-erasure: taken over. */
const CLAIM_STALE_MS = 2 * S3_TIMEOUT_MS
/** How often an upload looks again while a pass deletes the same file's object. */
const CLAIM_POLL_MS = 100
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))

/**
 * Before an upload writes a file's object (S3MediaStore.put): an erasure of the same file still waiting
 * is cancelled (the file is wanted again); one that a pass is carrying out right now is waited for,
 * so that the pass does not delete the object this upload is about to write. Both are single-row
 * statements, so on PostgreSQL and SQLite alike exactly one of the upload and the pass wins the row;
 * no lock or connection is held while the bucket answers.
 */
async function settleErasure (db: Db, sha256: string): Promise<void> {
  for (;;) {
    // the usual upload: no erasure of this file, one read
    const erasure = await db.selectFrom('media_erasures').select('claimed_at').where('sha256', '=', sha256).executeTakeFirst()
    if (!erasure) return
    if (erasure.claimed_at === null) {
      // waiting: cancelled, unless a pass claims it first (then the next round waits for that pass)
      await db.deleteFrom('media_erasures').where('sha256', '=', sha256).where('claimed_at', 'is', null).execute()
    } else if (Date.now() - Date.parse(erasure.claimed_at) > CLAIM_STALE_MS) {
      // a pass that died mid-erasure: its claim lapses and the upload takes the row over
      await db.deleteFrom('media_erasures').where('sha256', '=', sha256).where('claimed_at', '=', erasure.claimed_at).execute()
    } else {
      await sleep(CLAIM_POLL_MS)
    }
  }
}

/**
 * Inside deleteAccount's transaction (PIPL): every file the account uploaded goes (its row now, the
 * bucket's copy once the deletion has committed: table media_erasures, eraseMediaObjects), unless the
 * shop shows it elsewhere (a series cover, a design's image, another account's avatar or post), in which
 * case it stays as the shop's and no longer names who uploaded it. The account's own posts are gone by
 * then (show.ts eraseShowContent).
 */
export async function eraseUploadsOf (trx: Db, clock: Clock, userId: number): Promise<void> {
  const files = await trx.selectFrom('media').select(['sha256', 'ext']).where('uploaded_by', '=', userId).execute()
  for (const { sha256, ext } of files) {
    const like = `%${sha256}%`
    const shown = await trx.selectFrom('series').select('id').where('cover', 'like', like).executeTakeFirst() ??
      await trx.selectFrom('designs').select('id').where('image', 'like', like).executeTakeFirst() ??
      await trx.selectFrom('users').select('id').where('avatar', 'like', like).where('id', '<>', userId).executeTakeFirst() ??
      await trx.selectFrom('show_posts').select('id').where('images', 'like', like).executeTakeFirst()
    if (shown) {
      await trx.updateTable('media').set({ uploaded_by: null }).where('sha256', '=', sha256).execute()
      continue
    }
    await trx.deleteFrom('media').where('sha256', '=', sha256).execute()
    await trx.insertInto('media_erasures').values({ sha256, ext, created_at: iso(clock()) })
      .onConflict(oc => oc.column('sha256').doNothing()).execute()
  }
}

/** How many erasures one pass takes on (the rest wait for the next pass). */
const ERASURES_PER_PASS = 200

/**
 * Deletes the bucket's copies of files whose rows went (table media_erasures, written with the rows'
 * deletion): right after an account's deletion and again at each maintenance pass, until the store
 * answers. A file uploaded again since keeps its object (and its erasure goes). Answers how many
 * objects were deleted; a store that is down leaves the rest for the next pass.
 */
export async function eraseMediaObjects (db: Db, store: MediaStore): Promise<number> {
  const stale = new Date(Date.now() - CLAIM_STALE_MS).toISOString()
  const pending = await db.selectFrom('media_erasures').select(['sha256', 'ext'])
    .where(eb => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', stale)]))
    .orderBy('created_at').limit(ERASURES_PER_PASS).execute()
  let erased = 0
  for (const { sha256, ext } of pending) {
    // claim it (one pass, or an upload cancelling it, wins the row)
    const claimedAt = new Date().toISOString()
    const claimed = await db.updateTable('media_erasures').set({ claimed_at: claimedAt })
      .where('sha256', '=', sha256).where(eb => eb.or([eb('claimed_at', 'is', null), eb('claimed_at', '<', stale)]))
      .executeTakeFirst()
    if (Number(claimed.numUpdatedRows) === 0) continue
    try {
      // uploaded again before the claim: the object is the new row's
      const back = await db.selectFrom('media').select('sha256').where('sha256', '=', sha256).executeTakeFirst()
      if (!back) {
        await store.removeObject(sha256, ext)
        erased++
      }
      await db.deleteFrom('media_erasures').where('sha256', '=', sha256).where('claimed_at', '=', claimedAt).execute()
    } catch (err) {
      // the bucket is down: the row waits for the next pass
      await db.updateTable('media_erasures').set({ claimed_at: null }).where('sha256', '=', sha256).where('claimed_at', '=', claimedAt).execute()
      throw err
    }
  }
  return erased
}

/**
 * The bytes in S3-compatible object storage (MEDIA_STORE=s3), the row holding the metadata and empty
 * data. The object is written before its row, so a row never names an object that was not stored;
 * a row kept before the switch from the database (its data not empty) is served from the row.
 */
export class S3MediaStore implements MediaStore {
  readonly kind = 's3' as const
  constructor (private readonly db: Db, private readonly s3: S3Client) {}

  async put (sha256: string, ext: string, contentType: string, bytes: Buffer, meta: MediaMeta): Promise<void> {
    // the same file again: its object and row are there already
    if (await this.has(sha256)) return
    // an erasure of the same file (a deleted account's) is cancelled, or waited for if under way
    await settleErasure(this.db, sha256)
    await this.s3.putObject(objectKey(sha256, ext), bytes, contentType)
    await insertRow(this.db, sha256, ext, contentType, Buffer.alloc(0), bytes.length, meta)
  }

  async get (sha256: string, ext?: string): Promise<StoredMedia | null> {
    const row = await this.db.selectFrom('media').select(['content_type', 'ext', 'data', 'size', 'width', 'height']).where('sha256', '=', sha256).executeTakeFirst()
    // another extension: nothing to fetch
    if (!row || (ext !== undefined && row.ext !== ext)) return null
    const kept = Buffer.from(row.data)
    if (kept.length) return { ...infoOf(row), bytes: kept }
    const object = await this.s3.getObject(objectKey(sha256, row.ext))
    // the row's type is the one checked at upload (the bucket's copy says the same)
    return object ? { ...infoOf(row), bytes: object.bytes } : null
  }

  info (sha256: string) { return infoRow(this.db, sha256) }
  async has (sha256: string) { return (await infoRow(this.db, sha256)) !== null }
  async removeObject (sha256: string, ext: string): Promise<void> {
    await this.s3.deleteObject(objectKey(sha256, ext))
  }
}
