/**
 * One-time codes (SMS and mail): single use, CODE_TTL_MS long, CODE_MAX_ATTEMPTS guesses, stored hashed.
 * A new code for a target replaces the previous one.
 */
import type { Db } from '../../db'
import { iso, type Clock } from '../../core/clock'
import { CODE_MAX_ATTEMPTS, CODE_TTL_MS, hashCode, newCode, sameHash } from '../../security/codes'

/** The channel a code travelled through; a code proves control of that phone or address. */
export type CodeChannel = 'sms' | 'mail'

/**
 * What a code may be used for (it is hashed with its purpose, so it works for nothing else):
 *   sms, mail                  log in or sign up with the phone or address (the code logins)
 *   bind_sms:<userId>, ...     bind that phone or address to that account (the security page)
 *   reauth_sms:<userId>, ...   prove it is the owner, for an account without a password (setting a
 *                              first password, deleting the account), sent to the account's own phone
 *                              or address
 *   guardian_sms:<userId>      a minor's guardian consents to that account's purchases (sent to the
 *                              guardian's phone, entered by the minor; domain/age.ts)
 * A new code replaces the previous one of the same purpose and target only: a bind code asked for by
 * one account does not void a login code, nor another account's bind code, to the same address.
 */
export type CodePurpose = CodeChannel | `${'bind' | 'reauth'}_${CodeChannel}:${number}` | `guardian_sms:${number}`

export const bindPurpose = (channel: CodeChannel, userId: number): CodePurpose => `bind_${channel}:${userId}`
export const reauthPurpose = (channel: CodeChannel, userId: number): CodePurpose => `reauth_${channel}:${userId}`
/** The channel of a purpose: the rate limits per target count codes by channel and target, whatever the purpose. */
export const channelOf = (purpose: CodePurpose): CodeChannel => (/^(?:\w+_)?sms(?::|$)/.test(purpose) ? 'sms' : 'mail')

export class OneTimeCodes {
  constructor (private readonly db: Db, private readonly clock: Clock) {}

  async issue (purpose: CodePurpose, target: string): Promise<{ id: number; code: string }> {
    const now = this.clock()
    const code = newCode()
    const row = await this.db.transaction().execute(async trx => {
      await trx.updateTable('one_time_codes')
        .set({ used_at: iso(now) })
        .where('purpose', '=', purpose).where('target', '=', target).where('used_at', 'is', null)
        .execute()
      return trx.insertInto('one_time_codes').values({
        purpose,
        target,
        code_hash: hashCode(purpose, target, code),
        expires_at: iso(now + CODE_TTL_MS),
        attempts: 0,
        used_at: null,
        created_at: iso(now)
      }).returning('id').executeTakeFirstOrThrow()
    })
    return { id: Number(row.id), code }
  }

  /** Withdraws a code that could not be delivered. */
  async discard (id: number): Promise<void> {
    await this.db.deleteFrom('one_time_codes').where('id', '=', id).execute()
  }

  /** True once for the right code within its lifetime and attempt budget; every try counts. */
  async verify (purpose: CodePurpose, target: string, code: string): Promise<boolean> {
    return this.match(purpose, target, code, true)
  }

  /** Whether the code is right, the try counted as verify counts it, but the code stays usable. */
  async check (purpose: CodePurpose, target: string, code: string): Promise<boolean> {
    return this.match(purpose, target, code, false)
  }

  private async match (purpose: CodePurpose, target: string, code: string, use: boolean): Promise<boolean> {
    const now = this.clock()
    const current = await this.db.selectFrom('one_time_codes')
      .select(['id', 'code_hash'])
      .where('purpose', '=', purpose).where('target', '=', target)
      .where('used_at', 'is', null)
      .where('expires_at', '>', iso(now))
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
    if (!current) return false
    // count the attempt first (atomically), so parallel guesses cannot exceed the budget
    const counted = await this.db.updateTable('one_time_codes')
      .set(eb => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', current.id)
      .where('attempts', '<', CODE_MAX_ATTEMPTS)
      .where('used_at', 'is', null)
      .executeTakeFirst()
    if (Number(counted.numUpdatedRows) !== 1) return false
    if (!sameHash(current.code_hash, hashCode(purpose, target, code))) return false
    if (!use) return true
    const used = await this.db.updateTable('one_time_codes')
      .set({ used_at: iso(now) })
      .where('id', '=', current.id)
      .where('used_at', 'is', null)
      .executeTakeFirst()
    return Number(used.numUpdatedRows) === 1
  }

  async purge (): Promise<void> {
    await this.db.deleteFrom('one_time_codes').where('expires_at', '<', iso(this.clock() - 24 * 60 * 60 * 1000)).execute()
  }
}
