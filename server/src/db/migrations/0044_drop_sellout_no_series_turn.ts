import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../dialect'
import { replacedOnce, withSessionCheck } from './0033_purchase_session_check'

/**
 * shop_purchase: a case of a drop that sells out does not take its turn on the series row. The turn is
 * there so that the last of a series' sell-outs sees the others and the series keeps a case on sale;
 * a series selling by drops gets its cases only from a drop (domain/catalogue/cases.ts createCase makes
 * none), so at a drop the turn only queued hundreds of sell-outs a minute behind each other's commits,
 * each holding a connection of the pool. The TypeScript purchase (domain/purchase/purchase.ts) does the
 * same. Same rows, same answers.
 */
const SIGNATURE = 'bigint, text, text, text, bigint, integer[], bigint, timestamptz, text, timestamptz, timestamptz, integer, integer, bigint, integer, text[], text, bigint, timestamptz, boolean'

const steps: Array<[string, string]> = [
  ['  v_series bigint;\n', '  v_series bigint;\n  v_case_drop bigint;\n'],
  ['    returning size, sold_count into v_case_size, v_sold_count;', '    returning size, sold_count, drop_id into v_case_size, v_sold_count, v_case_drop;'],
  ['  if v_sold_count >= v_case_size then\n    update cases set status', '  if v_sold_count >= v_case_size and v_case_drop is not null then\n    update cases set status = \'sold_out\', revealed_at = p_now where id = p_case;\n    delete from case_leases where case_id = p_case;\n  elsif v_sold_count >= v_case_size then\n    update cases set status']
]

/** shop_purchase as of this migration. */
export function withDropSellOuts (): string {
  return steps.reduce((text, [from, to]) => replacedOnce('0044', text, from, to), withSessionCheck())
}

export function dropSelloutNoSeriesTurn (dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(`drop function shop_purchase(${SIGNATURE});\n${withDropSellOuts()}`).execute(db)
    },
    async down (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(`drop function shop_purchase(${SIGNATURE});\n${withSessionCheck()}`).execute(db)
    }
  }
}
