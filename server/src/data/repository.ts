/**
 * The queries of the generic table API. Every query goes through `scoped`, which applies the table's
 * visibility rule and, for owner tables, `user_id = caller`; only allow-listed columns are selected or
 * written. Identical SQL on SQLite and PostgreSQL.
 */
import type { Kysely, SelectQueryBuilder, Transaction } from 'kysely'
import type { PageResult } from '../../../types/schema'
import { iso, type Clock } from '../core/clock'
import { fail } from '../core/errors'
import { EXPORT_MAX_ROWS, LIST_MAX, type QueryParam } from './params'
import type { TableSpec } from './tables'
import type { Dialect } from '../db/dialect'
import { forUpdate } from '../db/lock'
import { isUniqueViolation } from '../db/errors'

export type Row = Record<string, unknown>
/** null: anonymous. */
export type CallerId = number | null

// the table API serves tables named at run time (data/tables.ts): its Kysely types cannot be the schema's
/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type */
type AnyDb = Kysely<any>
type AnyTrx = Transaction<any>
type AnyQuery = SelectQueryBuilder<any, any, {}>
/* eslint-enable @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type */

export class TableRepository {
  constructor (private readonly db: AnyDb, private readonly clock: Clock, private readonly dialect: Dialect) {}

  /**
   * Writes of one owner run one at a time: the owner's user row is locked first (PostgreSQL), so the
   * per-owner cap and the single-true flag are checked and changed without a race. (SQLite runs one
   * write transaction at a time anyway.) The partial unique index of migration 0005 backs the flag up.
   */
  private async lockOwner (trx: AnyTrx, owner: number): Promise<void> {
    const row = await forUpdate(this.dialect, trx.selectFrom('users').select('deleted_at').where('id', '=', owner)).executeTakeFirst()
    // an account deleted since this request's session was read writes nothing
    if (!row || row.deleted_at !== null) throw fail.unauthorized()
  }

  /**
   * A write of one owner in a transaction with the owner's row locked. Should the single-true flag's
   * unique index still refuse it (a row written outside the table API meanwhile), the caller gets a
   * 409 envelope to retry, never a 500.
   */
  private async ownerWrite<T> (owner: number, write: (trx: AnyTrx) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction().execute(async trx => {
        await this.lockOwner(trx, owner)
        return write(trx)
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw fail.conflict('data.writeConflict')
      throw err
    }
  }

  private static fieldNames (spec: TableSpec): string[] {
    return Object.keys(spec.fields)
  }

  /** Values as the API shows them: booleans as booleans, numbers as numbers. */
  static present (spec: TableSpec, raw: Row): Row {
    const out: Row = {}
    for (const [name, field] of Object.entries(spec.fields)) {
      const v = raw[name]
      if (v === null || v === undefined) out[name] = null
      else if (field.kind === 'boolean') out[name] = v === 1 || v === true
      else if (field.kind === 'id' || field.kind === 'integer' || field.kind === 'cents') out[name] = Number(v)
      else out[name] = v
    }
    return out
  }

  private static stored (spec: TableSpec, values: Row): Row {
    const out: Row = {}
    for (const [name, v] of Object.entries(values)) {
      if (name === 'id' || !spec.fields[name]?.write) continue
      out[name] = spec.fields[name].kind === 'boolean' ? (v ? 1 : 0) : v
    }
    return out
  }

  private static ownerOf (spec: TableSpec, caller: CallerId): number | null {
    if (spec.access !== 'owner') return null
    if (caller === null) throw fail.unauthorized()
    return caller
  }

  private scoped (db: AnyDb, spec: TableSpec, caller: CallerId): AnyQuery {
    let q = db.selectFrom(spec.table) as AnyQuery
    const owner = TableRepository.ownerOf(spec, caller)
    if (owner !== null) q = q.where('user_id', '=', owner)
    if (spec.visible) q = q.where(spec.visible)
    return q
  }

  private filtered (spec: TableSpec, caller: CallerId, param: QueryParam) {
    let q = this.scoped(this.db, spec, caller)
    for (const [name, value] of Object.entries(param.where ?? {})) {
      if (!spec.fields[name]?.filter || value === undefined) continue
      q = q.where(name, '=', spec.fields[name].kind === 'boolean' ? (value ? 1 : 0) : value)
    }
    return q
  }

  private ordered (spec: TableSpec, q: AnyQuery, param: QueryParam) {
    const field = param.orderBy ?? spec.defaultOrder.field
    const direction = param.order ?? (param.orderBy ? 'asc' : spec.defaultOrder.direction)
    q = q.orderBy(field, direction)
    if (field !== 'id') q = q.orderBy('id', direction)
    return q
  }

  async get (spec: TableSpec, caller: CallerId, id: number): Promise<Row> {
    const row = await this.scoped(this.db, spec, caller)
      .select(TableRepository.fieldNames(spec)).where('id', '=', id).executeTakeFirst()
    if (!row) throw fail.notFound('data.rowNotFound')
    return TableRepository.present(spec, row)
  }

  async list (spec: TableSpec, caller: CallerId, param: QueryParam, max = LIST_MAX): Promise<Row[]> {
    const rows = await this.ordered(spec, this.filtered(spec, caller, param), param)
      .select(TableRepository.fieldNames(spec))
      .limit(Math.min(param.limit ?? max, max))
      .execute()
    return rows.map(r => TableRepository.present(spec, r))
  }

  async page (spec: TableSpec, caller: CallerId, param: QueryParam & { page: number; size: number }): Promise<PageResult<Row>> {
    const { total } = await this.filtered(spec, caller, param)
      .select(eb => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow()
    const rows = await this.ordered(spec, this.filtered(spec, caller, param), param)
      .select(TableRepository.fieldNames(spec))
      .limit(param.size)
      .offset((param.page - 1) * param.size)
      .execute()
    return { list: rows.map(r => TableRepository.present(spec, r)), total: Number(total) }
  }

  async exportRows (spec: TableSpec, caller: CallerId, param: QueryParam): Promise<Row[]> {
    return this.list(spec, caller, param, EXPORT_MAX_ROWS)
  }

  /** Clears the single-true flag on the caller's other rows when a row claims it. */
  private static async clearFlag (trx: AnyTrx, spec: TableSpec, owner: number, exceptId?: number) {
    const flag = spec.singleTrueFlag
    if (!flag) return
    let q = trx.updateTable(spec.table).set({ [flag]: 0 }).where('user_id', '=', owner).where(flag, '=', 1)
    if (exceptId !== undefined) q = q.where('id', '!=', exceptId)
    await q.execute()
  }

  async add (spec: TableSpec, caller: CallerId, values: Row): Promise<Row> {
    const owner = TableRepository.ownerOf(spec, caller)
    if (owner === null) throw new Error(`add on public table ${spec.table} is not allowed`)
    const now = iso(this.clock())
    return this.ownerWrite(owner, async trx => {
      const { n } = await trx.selectFrom(spec.table).where('user_id', '=', owner)
        .select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
      if (spec.maxRowsPerOwner !== undefined && Number(n) >= spec.maxRowsPerOwner) {
        throw fail.unprocessable('data.tooManyRows', { max: spec.maxRowsPerOwner, table: spec.table }, { max: spec.maxRowsPerOwner })
      }
      const stored = TableRepository.stored(spec, values)
      const flag = spec.singleTrueFlag
      if (flag) {
        // the first row is the default; a new default replaces the old one
        if (Number(n) === 0) stored[flag] = 1
        if (stored[flag] === 1) await TableRepository.clearFlag(trx, spec, owner)
      }
      const row = await trx.insertInto(spec.table)
        .values({ ...stored, user_id: owner, created_at: now, updated_at: now })
        .returning(TableRepository.fieldNames(spec))
        .executeTakeFirstOrThrow()
      return TableRepository.present(spec, row)
    })
  }

  async update (spec: TableSpec, caller: CallerId, id: number, values: Row): Promise<Row> {
    const owner = TableRepository.ownerOf(spec, caller)
    if (owner === null) throw new Error(`update on public table ${spec.table} is not allowed`)
    const stored = TableRepository.stored(spec, values)
    return this.ownerWrite(owner, async trx => {
      if (spec.singleTrueFlag && stored[spec.singleTrueFlag] === 1) {
        await TableRepository.clearFlag(trx, spec, owner, id)
      }
      const row = await trx.updateTable(spec.table)
        .set({ ...stored, updated_at: iso(this.clock()) })
        .where('id', '=', id).where('user_id', '=', owner)
        .returning(TableRepository.fieldNames(spec))
        .executeTakeFirst()
      // not found and not the caller's look the same; the transaction undoes any flag change
      if (!row) throw fail.notFound('data.rowNotFound')
      return TableRepository.present(spec, row)
    })
  }

  async delete (spec: TableSpec, caller: CallerId, id: number): Promise<void> {
    const owner = TableRepository.ownerOf(spec, caller)
    if (owner === null) throw new Error(`delete on public table ${spec.table} is not allowed`)
    const result = await this.db.deleteFrom(spec.table).where('id', '=', id).where('user_id', '=', owner).executeTakeFirst()
    if (Number(result.numDeletedRows) !== 1) throw fail.notFound('data.rowNotFound')
  }
}
