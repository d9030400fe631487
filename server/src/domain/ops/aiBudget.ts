/**
 * The daily budget of the calls that reach a paid AI, picture, video or music provider (AI_BUDGET in
 * types/limits.ts; the two operator settings aiDailyPerAccount and aiDailyPerShop). A call takes one
 * unit from its account and one from the shop for the China day, in one transaction, each by a
 * conditional upsert (`INSERT ... ON CONFLICT DO UPDATE SET used = used + 1 WHERE used < budget
 * RETURNING`): the row is locked while it is counted, so no burst, on any number of processes, takes
 * more than the budget. The unit is given back only when the provider was never reached (see
 * providerNeverReached); any answer, refusal or time-out counts, since the provider may bill it.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../db/schema'
import { DAY_MS, shopDay } from '../../core/days'
import { ProviderUnavailableError } from '../../providers/errors'

type Db = Kysely<Database>

export type AiBudgetScope = 'account' | 'shop'
export interface AiBudgets { perAccount: number; perShop: number }
export type AiBudgetTake = { ok: true; day: string } | { ok: false; scope: AiBudgetScope }

export const SHOP_SUBJECT = 'shop'
export const accountSubject = (userId: number) => `user:${userId}`
/** Days of counts kept (the maintenance sweep deletes older rows). */
export const AI_USAGE_KEEP_DAYS = 35

class Refused extends Error {
  constructor (readonly scope: AiBudgetScope) { super(`ai budget: ${scope}`) }
}

async function takeOne (db: Db, subject: string, day: string, budget: number): Promise<boolean> {
  if (budget <= 0) return false
  const row = await db.insertInto('ai_usage').values({ subject, day, used: 1 })
    .onConflict(oc => oc.columns(['subject', 'day'])
      .doUpdateSet({ used: sql<number>`ai_usage.used + 1` })
      .where(sql<boolean>`ai_usage.used < ${budget}`))
    .returning('used')
    .executeTakeFirst()
  return row !== undefined
}

/** Takes one unit from the account and one from the shop for the day of `now`, or neither. */
export async function takeAiBudget (db: Db, now: number, userId: number, budgets: AiBudgets): Promise<AiBudgetTake> {
  const day = shopDay(now)
  try {
    await db.transaction().execute(async trx => {
      // always the account first, then the shop: every transaction locks in the same order
      if (!await takeOne(trx, accountSubject(userId), day, budgets.perAccount)) throw new Refused('account')
      if (!await takeOne(trx, SHOP_SUBJECT, day, budgets.perShop)) throw new Refused('shop')
    })
  } catch (err) {
    if (err instanceof Refused) return { ok: false, scope: err.scope }
    throw err
  }
  return { ok: true, day }
}

/** Gives back a unit taken on `day` (the provider was never reached). */
export async function giveBackAiBudget (db: Db, day: string, userId: number): Promise<void> {
  await db.updateTable('ai_usage').set({ used: sql<number>`used - 1` })
    .where('subject', 'in', [accountSubject(userId), SHOP_SUBJECT]).where('day', '=', day).where('used', '>', 0)
    .execute()
}

export interface AiUsageToday {
  day: string
  shopUsed: number
  /** The most any one account used today. */
  accountMostUsed: number
  /** Accounts that used their whole budget today. */
  accountsAtBudget: number
}

export async function aiUsageToday (db: Db, now: number, budgets: AiBudgets): Promise<AiUsageToday> {
  const day = shopDay(now)
  const shop = await db.selectFrom('ai_usage').select('used').where('subject', '=', SHOP_SUBJECT).where('day', '=', day).executeTakeFirst()
  const accounts = await db.selectFrom('ai_usage')
    .select(eb => [eb.fn.max<number>('used').as('most'), eb.fn.countAll<number>().filterWhere('used', '>=', Math.max(1, budgets.perAccount)).as('full')])
    .where('day', '=', day).where('subject', '!=', SHOP_SUBJECT)
    .executeTakeFirst()
  return {
    day,
    shopUsed: Number(shop?.used ?? 0),
    accountMostUsed: Number(accounts?.most ?? 0),
    accountsAtBudget: Number(accounts?.full ?? 0)
  }
}

/** Deletes the counts of days older than AI_USAGE_KEEP_DAYS. */
export async function purgeAiUsage (db: Db, now: number): Promise<void> {
  await db.deleteFrom('ai_usage').where('day', '<', shopDay(now - AI_USAGE_KEEP_DAYS * DAY_MS)).execute()
}

const NEVER_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])

/**
 * Whether an error shows the provider was never reached: no connection was made (refused, no such
 * host, no route, the connection itself timed out). Read along the chain of causes the adapters keep;
 * a failure after the provider did its work (a picture it made that could not be downloaded) counts.
 */
export function providerNeverReached (err: unknown): boolean {
  if (err instanceof ProviderUnavailableError && err.afterWork) return false
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 6; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && NEVER_REACHED.has(code)) return true
  }
  return false
}
