/**
 * The shopper's own address book (types/afterDraw.ts addressRoutes): at most 20, exactly one default
 * while there is any. Writes of one user run one at a time (the user's row is locked on PostgreSQL;
 * SQLite writes one transaction at a time), and the partial unique index of migration 0005 backs the
 * one default: a write it still refuses is a 409 to retry, never a 500.
 */
import type { Kysely, Selectable, Transaction } from 'kysely'
import { ADDRESS_NAME_LETTER, AFTER_DRAW_LIMITS } from '../../../../types/limits'
import type { Address, AddressSaveRequest } from '../../../../types/afterDraw'
import type { AddressesTable, Database } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import { forUpdate } from '../../db/lock'
import { isUniqueViolation } from '../../db/errors'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { areaText, cleanArea } from '../account/regions'

type Db = Kysely<Database>

export function addressView (r: Selectable<AddressesTable>): Address {
  return {
    id: Number(r.id),
    name: r.name,
    phone: r.phone,
    region: r.region,
    area: r.province !== null && r.city !== null && r.district !== null ? { province: r.province, city: r.city, district: r.district } : null,
    detail: r.detail,
    isDefault: Number(r.is_default) === 1,
    createdAt: r.created_at,
    updatedAt: r.updated_at
  }
}

const NAME_LETTER = new RegExp(ADDRESS_NAME_LETTER, 'u')

const notFound = () => new ApiFailure(404, 'address.notFound', {}, { field: 'id' })

async function ownerWrite<T> (db: Db, dialect: Dialect, userId: number, write: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  try {
    return await db.transaction().execute(async trx => {
      const owner = await forUpdate(dialect, trx.selectFrom('users').select('deleted_at').where('id', '=', userId)).executeTakeFirst()
      // an account deleted since this request's session was read keeps no address
      if (!owner || owner.deleted_at !== null) throw fail.unauthorized()
      return write(trx)
    })
  } catch (err) {
    if (isUniqueViolation(err)) throw fail.conflict('data.writeConflict')
    throw err
  }
}

export async function listAddresses (db: Db, userId: number): Promise<Address[]> {
  const rows = await db.selectFrom('addresses').selectAll().where('user_id', '=', userId)
    .orderBy('is_default', 'desc').orderBy('id', 'desc').execute()
  return rows.map(addressView)
}

export async function ownAddress (db: Db, userId: number, id: number): Promise<Selectable<AddressesTable>> {
  const row = await db.selectFrom('addresses').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
  if (!row) throw new ApiFailure(404, 'address.notFound', {}, { field: 'addressId' })
  return row
}

export async function saveAddress (db: Db, dialect: Dialect, clock: Clock, userId: number, r: AddressSaveRequest): Promise<Address> {
  const now = iso(clock())
  // a picked region is kept as its parts and its text written from them; a typed one as typed, without parts
  const area = r.area ? cleanArea(r.area) : null
  const text = { name: r.name.trim(), phone: r.phone, region: area ? areaText(area) : r.region.trim(), detail: r.detail.trim() }
  for (const [field, value] of Object.entries(text)) {
    if (!value) throw fail.field(field, 'address.blank')
  }
  if (!NAME_LETTER.test(text.name)) throw fail.field('name', 'address.nameNoLetters')
  const fields = { ...text, province: area?.province ?? null, city: area?.city ?? null, district: area?.district ?? null }
  return ownerWrite(db, dialect, userId, async trx => {
    const { n } = await trx.selectFrom('addresses').where('user_id', '=', userId)
      .select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    if (r.id === undefined) {
      if (Number(n) >= AFTER_DRAW_LIMITS.addressesMax) {
        throw fail.unprocessable('address.tooMany', { max: AFTER_DRAW_LIMITS.addressesMax }, { max: AFTER_DRAW_LIMITS.addressesMax })
      }
      const isDefault = Number(n) === 0 || r.isDefault === true
      if (isDefault) await trx.updateTable('addresses').set({ is_default: 0 }).where('user_id', '=', userId).where('is_default', '=', 1).execute()
      const row = await trx.insertInto('addresses')
        .values({ ...fields, user_id: userId, is_default: isDefault ? 1 : 0, created_at: now, updated_at: now })
        .returningAll().executeTakeFirstOrThrow()
      return addressView(row)
    }
    const before = await trx.selectFrom('addresses').select(['id', 'is_default']).where('id', '=', r.id).where('user_id', '=', userId).executeTakeFirst()
    if (!before) throw notFound()
    // the default stays the default unless another one is chosen (isDefault: false on it changes nothing)
    const makeDefault = r.isDefault === true && Number(before.is_default) !== 1
    if (makeDefault) await trx.updateTable('addresses').set({ is_default: 0 }).where('user_id', '=', userId).where('is_default', '=', 1).execute()
    const row = await trx.updateTable('addresses')
      .set({ ...fields, ...(makeDefault ? { is_default: 1 } : {}), updated_at: now })
      .where('id', '=', r.id).where('user_id', '=', userId)
      .returningAll().executeTakeFirstOrThrow()
    return addressView(row)
  })
}

export async function deleteAddress (db: Db, dialect: Dialect, userId: number, id: number): Promise<null> {
  return ownerWrite(db, dialect, userId, async trx => {
    const gone = await trx.deleteFrom('addresses').where('id', '=', id).where('user_id', '=', userId).returning('is_default').executeTakeFirst()
    if (!gone) throw notFound()
    if (Number(gone.is_default) === 1) {
      const next = await trx.selectFrom('addresses').select('id').where('user_id', '=', userId).orderBy('id', 'desc').limit(1).executeTakeFirst()
      if (next) await trx.updateTable('addresses').set({ is_default: 1 }).where('id', '=', next.id).execute()
    }
    return null
  })
}

export async function setDefaultAddress (db: Db, dialect: Dialect, clock: Clock, userId: number, id: number): Promise<Address> {
  return ownerWrite(db, dialect, userId, async trx => {
    const row = await trx.selectFrom('addresses').select('id').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst()
    if (!row) throw notFound()
    await trx.updateTable('addresses').set({ is_default: 0 }).where('user_id', '=', userId).where('is_default', '=', 1).where('id', '!=', id).execute()
    const after = await trx.updateTable('addresses').set({ is_default: 1, updated_at: iso(clock()) })
      .where('id', '=', id).returningAll().executeTakeFirstOrThrow()
    return addressView(after)
  })
}
