/** Row types of media: uploaded files, their erasures, helper tasks (see ../schema.ts). */
import type { ColumnType } from 'kysely'
import type { Timestamp } from './columns'

/** An uploaded image, by the SHA-256 of its bytes (served as /media/u/<sha256>.<ext>). */
export interface MediaTable {
  sha256: string
  content_type: string
  ext: string
  data: Uint8Array
  size: number
  width: number
  height: number
  uploaded_by: number | null
  created_at: Timestamp
}

/** A file whose row went and whose bucket copy is still to be deleted (migration 0029). */
export interface MediaErasuresTable {
  sha256: string
  ext: string
  created_at: Timestamp
  /** The pass deleting the object now (null: waiting). */
  claimed_at: ColumnType<Timestamp | null, Timestamp | null | undefined, Timestamp | null>
}

/** A long-running helper task (PDF to images, video, music), owned by its creator. */
export interface HelperTasksTable {
  id: string
  kind: 'pdf' | 'video' | 'music'
  user_id: number
  status: 'pending' | 'running' | 'succeeded' | 'failed'
  provider_id: string | null
  source: string | null
  page_count: number | null
  result: string | null
  error: string | null
  created_at: Timestamp
  updated_at: Timestamp
}
