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
import type { Db } from '../db'
import type { S3Client } from '../providers/s3'

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
}
