/**
 * Rate limits kept in the database, so every API server behind a load balancer shares them.
 *
 * Each rule is a GCRA (generic cell rate algorithm): `limit` requests at once, then one every
 * `periodMs / limit`; a key that stays quiet for `periodMs` is back to a full allowance. Consuming is one
 * atomic upsert (`INSERT ... ON CONFLICT DO UPDATE ... WHERE allowed RETURNING`), correct under
 * concurrency on SQLite and PostgreSQL alike.
 */
import { sql } from 'kysely'
import type { Db } from '../db'
import type { Clock } from '../core/clock'

export interface RateRule {
  /** A stable name: part of the stored key. */
  name: string
  limit: number
  periodMs: number
}

export type RateDecision = { allowed: true } | { allowed: false; rule: RateRule; retryAfterMs: number }

const bigint = (n: number) => sql<number>`cast(${Math.round(n)} as bigint)`

export class RateLimiter {
  constructor (private readonly db: Db, private readonly clock: Clock) {}

  private static interval (rule: RateRule): number {
    return Math.max(1, Math.ceil(rule.periodMs / rule.limit))
  }

  private static key (rule: RateRule, subject: string): string {
    return `${rule.name}:${subject}`.slice(0, 300)
  }

  /** Takes one request from the allowance of (rule, subject). */
  async consume (rule: RateRule, subject: string): Promise<RateDecision> {
    const now = this.clock()
    const t = RateLimiter.interval(rule)
    const key = RateLimiter.key(rule, subject)
    const row = await this.db.insertInto('rate_limits')
      .values({ key, tat: now + t })
      .onConflict(oc => oc.column('key')
        .doUpdateSet({
          tat: sql<number>`case when rate_limits.tat < ${bigint(now)} then ${bigint(now + t)} else rate_limits.tat + ${bigint(t)} end`
        })
        .where(sql<boolean>`(case when rate_limits.tat < ${bigint(now)} then ${bigint(now)} else rate_limits.tat end) + ${bigint(t - rule.periodMs)} <= ${bigint(now)}`))
      .returning('tat')
      .executeTakeFirst()
    if (row) return { allowed: true }
    const current = await this.db.selectFrom('rate_limits').select('tat').where('key', '=', key).executeTakeFirst()
    const tat = current ? Number(current.tat) : now
    return { allowed: false, rule, retryAfterMs: Math.max(1000, tat + t - rule.periodMs - now) }
  }

  /**
   * Consumes every (rule, subject) in order; at the first refusal, gives back what was taken so far
   * and answers that refusal.
   */
  async consumeAll (checks: Array<[RateRule, string]>): Promise<RateDecision> {
    const taken: Array<[RateRule, string]> = []
    for (const [rule, subject] of checks) {
      const decision = await this.consume(rule, subject)
      if (!decision.allowed) {
        for (const [r, s] of taken) await this.refund(r, s)
        return decision
      }
      taken.push([rule, subject])
    }
    return { allowed: true }
  }

  /** Gives one request back (e.g. a login attempt that turned out to be the owner's). */
  async refund (rule: RateRule, subject: string): Promise<void> {
    const t = RateLimiter.interval(rule)
    await this.db.updateTable('rate_limits')
      .set({ tat: sql<number>`rate_limits.tat - ${bigint(t)}` })
      .where('key', '=', RateLimiter.key(rule, subject))
      .execute()
  }

  /** Forgets keys whose allowance is full again. */
  async purge (): Promise<void> {
    await this.db.deleteFrom('rate_limits').where('tat', '<', this.clock()).execute()
  }
}
