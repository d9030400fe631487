/**
 * Sessions: an opaque token handed to the client, its SHA-256 in the database. A session ends when it
 * is revoked (logout), idle for SESSION_IDLE_MS, or SESSION_MAX_AGE_MS after login, whichever is first.
 */
import type { Db } from '../../db'
import type { UserRow } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { hashToken, newToken } from '../../security/tokens'
import { prepared } from '../../db/prepared'
import { dialectOf } from '../../db/lock'
import { fail } from '../../core/errors'

/** The session of a token's hash with its account (every signed-in request asks it: prepared). */
const sessionByHash = prepared((db: Db, tokenHash: string) => db.selectFrom('sessions')
  .innerJoin('users', 'users.id', 'sessions.user_id')
  .selectAll('users')
  .select(['sessions.id as session_id', 'sessions.last_seen_at', 'sessions.expires_at', 'sessions.revoked_at'])
  .where('sessions.token_hash', '=', tokenHash)
  // a deleted account accepts nothing, whatever session row survived
  .where('users.deleted_at', 'is', null))

const MINUTE = 60 * 1000
const DAY = 24 * 60 * MINUTE

export const SESSION_IDLE_MS = 7 * DAY
export const SESSION_MAX_AGE_MS = 30 * DAY
/** last_seen_at is written at most this often per session. */
export const SESSION_TOUCH_MS = MINUTE
/** How long a process lets a route that checks the session again itself in on what it last read (PostgreSQL). */
export const SESSION_REMEMBER_MS = 30 * 1000
/** The most sessions a process remembers (the oldest go first). */
export const SESSION_REMEMBER_MAX = 10_000

export interface ClientMeta { ip: string | null; userAgent: string | null; appType?: string | null }

export interface ActiveSession { sessionId: number; user: UserRow }

/**
 * What a login read and proved before creating the session: the session is created only if the account
 * still exists, is not deleted, and still holds it. A password login names the hash it verified (null
 * for none), a code login the phone or address the code went to, a WeChat login its identity.
 */
export interface SessionGuard {
  passwordHash?: string | null
  phone?: string
  email?: string
  identity?: { provider: string; subject: string }
}

/**
 * Sessions a process has read lately, for the routes whose own statement checks the session again (on
 * PostgreSQL, POST /api/casePurchase: shop_purchase, migration 0033). Such a route lets a request in on
 * what the process read of its token up to SESSION_REMEMBER_MS ago, instead of a round trip of its own
 * before the statement's; if the session has ended meanwhile (in this process or another), the statement
 * answers 401 and changes nothing, and any other refusal waits for a fresh read (http/route.ts). Every
 * other route asks the database each time. Ending a session in this process forgets it at once.
 */
class RememberedSessions {
  private readonly byHash = new Map<string, { session: ActiveSession, readAt: number }>()

  get (hash: string, now: number): ActiveSession | null {
    const seen = this.byHash.get(hash)
    if (!seen) return null
    if (now - seen.readAt < SESSION_REMEMBER_MS && now >= seen.readAt) return seen.session
    this.byHash.delete(hash)
    return null
  }

  set (hash: string, session: ActiveSession, now: number): void {
    this.byHash.delete(hash)
    if (this.byHash.size >= SESSION_REMEMBER_MAX) this.byHash.delete(this.byHash.keys().next().value as string)
    this.byHash.set(hash, { session, readAt: now })
  }

  forget (hash: string): void { this.byHash.delete(hash) }

  forgetUser (userId: number): void {
    for (const [hash, seen] of this.byHash) if (Number(seen.session.user.id) === userId) this.byHash.delete(hash)
  }
}

export class SessionService {
  private readonly remembered = new RememberedSessions()

  constructor (private readonly db: Db, private readonly clock: Clock) {}

  /**
   * A new session of the account, if the account still is what the login read (`guard`), else a 401:
   * a login that verified a password or a code while the account was deleted, or its password, phone or
   * address changed, gets no session. The check and the insert are one transaction with the account row
   * locked (PostgreSQL: FOR SHARE, which waits for a deletion, a password change or a binding in progress,
   * then reads what they committed; and makes them wait for this insert, so that the sessions they end
   * include this one). SQLite runs one write transaction at a time.
   */
  async create (userId: number, meta: ClientMeta, guard: SessionGuard = {}): Promise<string> {
    const token = newToken()
    const now = this.clock()
    await this.db.transaction().execute(async trx => {
      const q = trx.selectFrom('users').select(['deleted_at', 'password_hash', 'phone', 'email']).where('id', '=', userId)
      const user = await (dialectOf(trx) === 'postgres' ? q.forShare() : q).executeTakeFirst()
      const holds = !!user && user.deleted_at === null &&
        (guard.passwordHash === undefined || user.password_hash === guard.passwordHash) &&
        (guard.phone === undefined || user.phone === guard.phone) &&
        (guard.email === undefined || user.email === guard.email) &&
        (guard.identity === undefined || !!await trx.selectFrom('identities').select('user_id')
          .where('provider', '=', guard.identity.provider).where('subject', '=', guard.identity.subject)
          .where('user_id', '=', userId).executeTakeFirst())
      if (!holds) throw fail.unauthorized('login.changed')
      await trx.insertInto('sessions').values({
        token_hash: hashToken(token),
        user_id: userId,
        created_at: iso(now),
        last_seen_at: iso(now),
        expires_at: iso(now + SESSION_MAX_AGE_MS),
        revoked_at: null,
        user_agent: meta.userAgent?.slice(0, 300) ?? null,
        ip: meta.ip?.slice(0, 64) ?? null,
        app_type: meta.appType?.slice(0, 32) ?? null
      }).execute()
    })
    return token
  }

  /** The live session of a token, or null; refreshes its idle clock. */
  async resolve (token: string): Promise<ActiveSession | null> {
    return this.read(hashToken(token))
  }

  /**
   * For a route whose own statement checks the session again (see RememberedSessions): what this process
   * read of the token lately, else resolve's answer, remembered. On SQLite, resolve's answer every time
   * (its lookup is a call in the process, and no statement there checks again).
   */
  async resolveRechecked (token: string): Promise<{ session: ActiveSession | null, remembered: boolean }> {
    if (dialectOf(this.db) !== 'postgres') return { session: await this.resolve(token), remembered: false }
    const hash = hashToken(token)
    const now = this.clock()
    const known = this.remembered.get(hash, now)
    if (known) return { session: known, remembered: true }
    const session = await this.read(hash)
    if (session) this.remembered.set(hash, session, now)
    return { session, remembered: false }
  }

  /** Forgets what this process remembers of a user's sessions (they were just ended here). */
  forgetUser (userId: number): void {
    this.remembered.forgetUser(userId)
  }

  private async read (hash: string): Promise<ActiveSession | null> {
    const row = await sessionByHash.first(this.db, hash)
    if (!row) return null
    const now = this.clock()
    const lastSeen = Date.parse(row.last_seen_at)
    if (row.revoked_at !== null || Date.parse(row.expires_at) <= now || lastSeen + SESSION_IDLE_MS <= now) return null
    if (now - lastSeen >= SESSION_TOUCH_MS) {
      await this.db.updateTable('sessions').set({ last_seen_at: iso(now) }).where('id', '=', row.session_id).execute()
    }
    const { session_id: sessionId, last_seen_at: _l, expires_at: _e, revoked_at: _r, ...user } = row
    return { sessionId: Number(sessionId), user: user as UserRow }
  }

  async revoke (token: string): Promise<void> {
    const hash = hashToken(token)
    await this.db.updateTable('sessions')
      .set({ revoked_at: iso(this.clock()) })
      .where('token_hash', '=', hash)
      .where('revoked_at', 'is', null)
      .execute()
    // forgotten once the update is done: a request that read the session while the update ran has
    // remembered it (until then it counts as it did before the logout; the purchase statement checks
    // the session itself)
    this.remembered.forget(hash)
  }

  /** Deletes sessions that can no longer be used. */
  async purge (): Promise<void> {
    const now = this.clock()
    await this.db.deleteFrom('sessions')
      .where(eb => eb.or([
        eb('expires_at', '<=', iso(now)),
        eb('last_seen_at', '<=', iso(now - SESSION_IDLE_MS)),
        eb('revoked_at', '<=', iso(now - DAY))
      ]))
      .execute()
  }
}
