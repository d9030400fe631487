import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../dialect'
import { replacedOnce } from './0033_purchase_session_check'
import { withDropSellOuts } from './0044_drop_sellout_no_series_turn'

/**
 * shop_purchase: a kuji set's draw is not sold here. A kuji set's purchase checks its buyer's turn and,
 * with the final ticket, gives the Last One and draws the Double Chance (domain/catalogue/kuji.ts); that
 * lives in the TypeScript purchase alone (domain/purchase/purchase.ts purchaseInSteps). So once the case
 * is found on sale, a set of a kuji series is answered with the refusal `kuji.steps` naming its series
 * (nothing moved, nothing stored), and purchaseOnPostgres.ts runs it step by step. A blind-box purchase
 * still reaches the database once.
 */
const SIGNATURE = 'bigint, text, text, text, bigint, integer[], bigint, timestamptz, text, timestamptz, timestamptz, integer, integer, bigint, integer, text[], text, bigint, timestamptz, boolean'

const steps: Array<[string, string]> = [
  ['  v_hidden_ppm integer;\n', '  v_hidden_ppm integer;\n  v_series_kind text;\n'],
  ['  select c.series_id, c.size, c.status, s.status, s.price_cents, s.hidden_ppm\n    into v_series, v_size, v_status, v_series_status, v_price, v_hidden_ppm\n',
    '  select c.series_id, c.size, c.status, s.status, s.price_cents, s.hidden_ppm, s.kind\n    into v_series, v_size, v_status, v_series_status, v_price, v_hidden_ppm, v_series_kind\n'],
  ['    return shop_purchase_refuse(p_user, p_key, jsonb_build_object(\'code\', \'case.notFound\'));\n  end if;\n',
    '    return shop_purchase_refuse(p_user, p_key, jsonb_build_object(\'code\', \'case.notFound\'));\n  end if;\n' +
    '  if v_series_kind = \'kuji\' then\n    return shop_purchase_refuse(p_user, p_key, jsonb_build_object(\'code\', \'kuji.steps\', \'seriesId\', v_series));\n  end if;\n']
]

/** shop_purchase as of this migration. */
export function withKujiSteps (): string {
  return steps.reduce((text, [from, to]) => replacedOnce('0048', text, from, to), withDropSellOuts())
}

export function purchaseKujiSteps (dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(`drop function shop_purchase(${SIGNATURE});\n${withKujiSteps()}`).execute(db)
    },
    async down (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(`drop function shop_purchase(${SIGNATURE});\n${withDropSellOuts()}`).execute(db)
    }
  }
}
