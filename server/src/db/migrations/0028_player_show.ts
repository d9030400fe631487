import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * The player show (issue 27, types/show.ts): posts of prizes a shopper owns, the prizes of each post
 * (with their series, for the series filter), likes (one per account and post), comments one level deep
 * (parent_id names a comment that has none), and reports (one per account and thing reported).
 * status: visible | reported (hidden by SHOW_LIMITS.reportsToHide reports until reviewed) | hidden (an
 * operator). Money and prize tables are not touched: a post only reads the prizes it names.
 */
export function playerShow (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  const statusCheck = (name: string) => sql`${sql.raw(name)} in ('visible', 'reported', 'hidden')`
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('show_posts')
        .$call(t.id)
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('text', 'varchar(500)', c => c.notNull())
        .addColumn('images', 'text', c => c.notNull())
        .addColumn('status', 'varchar(16)', c => c.notNull())
        .addColumn('hidden_reason', 'varchar(200)')
        .addColumn('like_count', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('comment_count', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('report_count', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('show_posts_status_check', statusCheck('status'))
        .addCheckConstraint('show_posts_counts_check', sql`like_count >= 0 and comment_count >= 0 and report_count >= 0`)
        .execute()
      await db.schema.createIndex('show_posts_status_idx').on('show_posts').columns(['status', 'id']).execute()
      await db.schema.createIndex('show_posts_popular_idx').on('show_posts').columns(['status', 'like_count', 'id']).execute()
      await db.schema.createIndex('show_posts_user_idx').on('show_posts').columns(['user_id', 'id']).execute()

      await db.schema.createTable('show_post_prizes')
        .addColumn('post_id', 'bigint', c => c.notNull().references('show_posts.id').onDelete('cascade'))
        .addColumn('prize_id', 'bigint', c => c.notNull().references('prizes.id'))
        .addColumn('series_id', 'bigint', c => c.notNull().references('series.id'))
        .addColumn('position', 'integer', c => c.notNull())
        .addPrimaryKeyConstraint('show_post_prizes_pk', ['post_id', 'prize_id'])
        .execute()
      await db.schema.createIndex('show_post_prizes_series_idx').on('show_post_prizes').columns(['series_id', 'post_id']).execute()
      await db.schema.createIndex('show_post_prizes_prize_idx').on('show_post_prizes').columns(['prize_id']).execute()

      await db.schema.createTable('show_likes')
        .addColumn('post_id', 'bigint', c => c.notNull().references('show_posts.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addPrimaryKeyConstraint('show_likes_pk', ['post_id', 'user_id'])
        .execute()
      await db.schema.createIndex('show_likes_user_idx').on('show_likes').columns(['user_id']).execute()

      await db.schema.createTable('show_comments')
        .$call(t.id)
        .addColumn('post_id', 'bigint', c => c.notNull().references('show_posts.id').onDelete('cascade'))
        .addColumn('parent_id', 'bigint', c => c.references('show_comments.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('text', 'varchar(200)', c => c.notNull())
        .addColumn('status', 'varchar(16)', c => c.notNull())
        .addColumn('hidden_reason', 'varchar(200)')
        .addColumn('report_count', 'integer', c => c.notNull().defaultTo(0))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('show_comments_status_check', statusCheck('status'))
        .execute()
      await db.schema.createIndex('show_comments_post_idx').on('show_comments').columns(['post_id', 'parent_id', 'id']).execute()
      await db.schema.createIndex('show_comments_user_idx').on('show_comments').columns(['user_id']).execute()

      await db.schema.createTable('show_reports')
        .$call(t.id)
        .addColumn('target', 'varchar(16)', c => c.notNull())
        .addColumn('target_id', 'bigint', c => c.notNull())
        .addColumn('user_id', 'bigint', c => c.notNull().references('users.id'))
        .addColumn('reason', 'varchar(16)', c => c.notNull())
        .addColumn('note', 'varchar(200)')
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('show_reports_target_check', sql`target in ('post', 'comment')`)
        .addCheckConstraint('show_reports_reason_check', sql`reason in ('spam', 'fake', 'offensive', 'personal', 'other')`)
        .addUniqueConstraint('show_reports_once', ['target', 'target_id', 'user_id'])
        .execute()
      await db.schema.createIndex('show_reports_user_idx').on('show_reports').columns(['user_id']).execute()
    },
    async down (db: Kysely<any>) {
      for (const table of ['show_reports', 'show_comments', 'show_likes', 'show_post_prizes', 'show_posts']) {
        await db.schema.dropTable(table).execute()
      }
    }
  }
}
