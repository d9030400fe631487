import { sql, type Kysely, type Migration } from 'kysely'
import type { Dialect } from '../dialect'
import { replaced as functionOf0032 } from './0032_purchase_one_slot_plan'

/**
 * shop_purchase checks the caller's session itself, first (issue 25). A purchase request on PostgreSQL
 * may then be let in on a session the process remembers (domain/sessions.ts, RememberedSessions)
 * instead of asking the database for it in a round trip of its own before the purchase's one: if the
 * session has ended meanwhile (logged out, revoked by a password change or an account deletion in any
 * process, expired, idle too long, deleted), the function answers `auth.required` (401) and changes
 * nothing, before it even looks at the idempotency key, which is where the request would have been
 * refused had the session been asked for. `p_session` null checks nothing (a caller without a session:
 * tests and tools); `p_session_idle_since` is the oldest last_seen_at still live (now less the idle limit).
 */
const OLD_PARAMETERS = 'p_spending_kinds text[], p_ledger_key text, p_in_tx boolean'
const NEW_PARAMETERS = 'p_spending_kinds text[], p_ledger_key text, p_session bigint, p_session_idle_since timestamptz, p_in_tx boolean'
const OLD_SIGNATURE = 'bigint, text, text, text, bigint, integer[], bigint, timestamptz, text, timestamptz, timestamptz, integer, integer, bigint, integer, text[], text, boolean'
const NEW_SIGNATURE = 'bigint, text, text, text, bigint, integer[], bigint, timestamptz, text, timestamptz, timestamptz, integer, integer, bigint, integer, text[], text, bigint, timestamptz, boolean'

const FIRST = `begin
  -- a key used before answers by itself`
const SESSION_FIRST = `begin
  -- the caller's session is still live (migration 0033): else a 401, before anything else, nothing stored
  if p_session is not null and not exists (
    select 1 from sessions
      where id = p_session and user_id = p_user and revoked_at is null
        and expires_at > p_now and last_seen_at > p_session_idle_since
  ) then
    return jsonb_build_object('refusal', jsonb_build_object('code', 'auth.required'));
  end if;

  -- a key used before answers by itself`

/**
 * `text` with `from` replaced by `to`, where `from` occurs exactly once in it (a later migration that
 * edits shop_purchase's text says which, and fails loudly when the text it expects is not there).
 */
export function replacedOnce (migration: string, text: string, from: string, to: string): string {
  const parts = text.split(from)
  if (parts.length !== 2) throw new Error(`migration ${migration}: ${JSON.stringify(from.slice(0, 40))} was not found once in shop_purchase`)
  return parts.join(to)
}

/** shop_purchase with the session check (and its two parameters before p_in_tx). */
export function withSessionCheck (): string {
  const once = (text: string, from: string, to: string) => replacedOnce('0033', text, from, to)
  return once(once(functionOf0032(), OLD_PARAMETERS, NEW_PARAMETERS), FIRST, SESSION_FIRST)
}

export function purchaseSessionCheck (dialect: Dialect): Migration {
  return {
    async up (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(`drop function shop_purchase(${OLD_SIGNATURE});\n${withSessionCheck()}`).execute(db)
    },
    async down (db: Kysely<any>) {
      if (dialect !== 'postgres') return
      await sql.raw(`drop function shop_purchase(${NEW_SIGNATURE});\n${functionOf0032()}`).execute(db)
    }
  }
}
