import { sql, type Kysely, type Migration } from 'kysely'
import { columnTypes, type Dialect } from '../dialect'

/**
 * Pickup points (自提, issue 24): places where a shopper collects prizes in person instead of a parcel.
 *   pickup_points           kept by operators in the editor's settings (each change audited); a point
 *                           is never deleted once a shipment names it, only closed (active = 0)
 *   shipments.pickup_point_id   the point a pickup shipment waits at (null: a parcel to an address)
 *   shipments.handed_by     the operator who handed the last prize over
 *   shipment_items.handed_at    when the operator scanned this prize's authenticity QR at the counter;
 *                           when every item of a pickup shipment is handed, it is received
 */
export function pickupPoints (dialect: Dialect): Migration {
  const t = columnTypes(dialect)
  return {
    async up (db: Kysely<any>) {
      await db.schema.createTable('pickup_points')
        .$call(t.id)
        .addColumn('name', 'varchar(50)', c => c.notNull())
        .addColumn('address', 'varchar(200)', c => c.notNull())
        .addColumn('hours', 'varchar(100)', c => c.notNull())
        .addColumn('latitude', 'double precision', c => c.notNull())
        .addColumn('longitude', 'double precision', c => c.notNull())
        .addColumn('active', 'integer', c => c.notNull().defaultTo(1))
        .addColumn('updated_by', 'bigint', c => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', t.timestamp, c => c.notNull())
        .addColumn('updated_at', t.timestamp, c => c.notNull())
        .addCheckConstraint('pickup_points_point_check', sql`latitude between -90 and 90 and longitude between -180 and 180`)
        .addCheckConstraint('pickup_points_active_check', sql`active in (0, 1)`)
        .execute()
      await db.schema.alterTable('shipments').addColumn('pickup_point_id', 'bigint', c => c.references('pickup_points.id')).execute()
      await db.schema.alterTable('shipments').addColumn('handed_by', 'bigint', c => c.references('users.id').onDelete('set null')).execute()
      await db.schema.alterTable('shipment_items').addColumn('handed_at', t.timestamp).execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('shipment_items').dropColumn('handed_at').execute()
      await db.schema.alterTable('shipments').dropColumn('handed_by').execute()
      await db.schema.alterTable('shipments').dropColumn('pickup_point_id').execute()
      await db.schema.dropTable('pickup_points').execute()
    }
  }
}
