import type { Kysely, Migration } from 'kysely'
import type { Dialect } from '../dialect'

/**
 * An address's region as its parts (issue 48): the province, city and district picked from a list (the
 * mini-program's region picker, the web app's picker over the shop's region data, or WeChat's address
 * import). `region` stays the text shown ("广东省 深圳市 南山区"), now written from the parts. The parts
 * are null on rows saved before this, whose region was typed as free text: they stay readable as
 * they were, and the app offers the picker again when such an address is edited.
 */
export function addressRegionParts (_dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      await db.schema.alterTable('addresses').addColumn('province', 'varchar(40)').execute()
      await db.schema.alterTable('addresses').addColumn('city', 'varchar(40)').execute()
      await db.schema.alterTable('addresses').addColumn('district', 'varchar(40)').execute()
    },
    async down (db: Kysely<any>) {
      await db.schema.alterTable('addresses').dropColumn('district').execute()
      await db.schema.alterTable('addresses').dropColumn('city').execute()
      await db.schema.alterTable('addresses').dropColumn('province').execute()
    }
  }
}
