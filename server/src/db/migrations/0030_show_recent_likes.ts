import type { Kysely, Migration } from 'kysely'

/**
 * The player show's "popular" feed ranks by the likes of the last SHOW_LIMITS.popularDays days
 * (domain/show.ts listPosts): this index finds those likes without reading every like ever given.
 */
export function showRecentLikes (): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.createIndex('show_likes_created_idx').on('show_likes').columns(['created_at', 'post_id']).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.dropIndex('show_likes_created_idx').execute()
    }
  }
}
