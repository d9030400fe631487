/**
 * Accounts reached through something other than a password: a third-party identity keyed by
 * (provider, subject), or a verified phone number / e-mail address. First contact creates the account.
 */
import type { Db } from '../../db'
import type { UserRow } from '../../db/schema'
import { isUniqueViolation } from '../../db/errors'
import { iso, type Clock } from '../../core/clock'
import { findUserBy, findUserById, insertUser, maskPhone } from './users'

/** Identity providers. A WeChat unionid ties the mini-program and web openids of one person. */
export const PROVIDERS = {
  weapp: 'weapp',
  wechatWeb: 'wechat_web',
  wechatUnion: 'wechat_union'
} as const

export interface IdentityClaim {
  provider: string
  subject: string
  /** WeChat unionid, when the app is bound to an open platform account. */
  unionid?: string
  nickname: string
  avatar?: string | null
}

const ATTEMPTS = 3

/** The user of an identity, creating and linking as needed; safe when two first logins race. */
export async function userForIdentity (db: Db, clock: Clock, claim: IdentityClaim): Promise<UserRow> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(async trx => {
        const find = (provider: string, subject: string) => trx.selectFrom('identities').select('user_id')
          .where('provider', '=', provider).where('subject', '=', subject).executeTakeFirst()
        const direct = await find(claim.provider, claim.subject)
        const viaUnion = claim.unionid ? await find(PROVIDERS.wechatUnion, claim.unionid) : undefined
        let userId = direct?.user_id ?? viaUnion?.user_id
        const now = iso(clock())
        if (userId === undefined) {
          const user = await insertUser(trx, clock, { nickname: claim.nickname.slice(0, 100), avatar: claim.avatar?.slice(0, 500) ?? null })
          userId = Number(user.id)
        }
        if (!direct) {
          await trx.insertInto('identities').values({ provider: claim.provider, subject: claim.subject, user_id: userId, created_at: now }).execute()
        }
        if (claim.unionid && !viaUnion) {
          await trx.insertInto('identities').values({ provider: PROVIDERS.wechatUnion, subject: claim.unionid, user_id: userId, created_at: now }).execute()
        }
        const user = await findUserById(trx, userId)
        if (!user) throw new Error(`identity ${claim.provider} points to missing user ${userId}`)
        return user
      })
    } catch (err) {
      if (attempt >= ATTEMPTS || !isUniqueViolation(err)) throw err
    }
  }
}

/** The user owning a verified phone number or address; a first code login creates the account. */
export async function userForContact (db: Db, clock: Clock, kind: 'phone' | 'email', value: string): Promise<UserRow> {
  const existing = await findUserBy(db, kind, value)
  if (existing) return existing
  const nickname = kind === 'phone' ? maskPhone(value) : value.split('@')[0].slice(0, 50)
  try {
    return await insertUser(db, clock, { [kind]: value, nickname })
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    const raced = await findUserBy(db, kind, value)
    if (!raced) throw err
    return raced
  }
}
