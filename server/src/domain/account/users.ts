/** Users: lookup by user name / phone / e-mail, creation, and the public shape (UserInfo). */
import type { UserInfo } from '../../../../types/accounts'
import type { Db } from '../../db'
import type { NewUser, UserRow } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { LOGIN_LIMITS } from '../../../../types/limits'
import { fail } from '../../core/errors'
import { dialectOf } from '../../db/lock'
import { displayUserName, userNameKey } from '../../security/userNames'
import { dropInvisibleChars, hasInvisibleChars } from '../../../../types/invisibleChars'

export type IdentifierKind = 'user_name' | 'phone' | 'email'

/** E-mail addresses are compared in lower case, phones as typed, user names by their key (security/userNames.ts). */
export function normaliseIdentifier (kind: IdentifierKind, value: string): string {
  return kind === 'email' ? value.trim().toLowerCase() : kind === 'user_name' ? displayUserName(value) : value.trim()
}

export async function findUserBy (db: Db, kind: IdentifierKind, value: string): Promise<UserRow | undefined> {
  const v = normaliseIdentifier(kind, value)
  const q = db.selectFrom('users').selectAll()
  if (kind === 'user_name') return q.where('user_name_key', '=', userNameKey(v)).executeTakeFirst()
  return q.where(kind, '=', v).executeTakeFirst()
}

/**
 * The account a login names. A user name is looked up as typed first (an account registered with an
 * invisible character before they were refused keeps logging in with it), then, if it has invisible
 * characters (types/invisibleChars.ts), without them: "al\u200bice" pasted from somewhere logs into
 * "alice". Never the other way: "alice" never enters an old "al\u200bice".
 */
export async function findLoginUser (db: Db, kind: IdentifierKind, value: string): Promise<UserRow | undefined> {
  const exact = await findUserBy(db, kind, value)
  if (exact || kind !== 'user_name' || !hasInvisibleChars(value)) return exact
  const visible = dropInvisibleChars(value)
  return visible.trim() === '' ? undefined : await findUserBy(db, kind, visible)
}

/** The key an unknown login name's guesses are counted under: invisible characters make no new budget. */
export const loginNameKey = (value: string): string => userNameKey(dropInvisibleChars(value))

/**
 * A name that may be registered, else a 400 on user_name: not blank once trimmed (every blank name would
 * be an account no name can log into), without invisible characters (types/invisibleChars.ts: "al\u200bice"
 * would pose as "alice"), and within the contract's length as stored and shown (NFC, which can lengthen a
 * name the schema let through: U+0958 becomes two characters).
 */
export function checkNewUserName (name: string): void {
  const shown = displayUserName(name)
  if (shown === '') throw fail.field('user_name', 'register.userNameBlank')
  if (hasInvisibleChars(shown)) throw fail.field('user_name', 'register.userNameInvisible')
  if ([...shown].length > LOGIN_LIMITS.userNameMax) {
    throw fail.field('user_name', 'validation.maxLength', { limit: LOGIN_LIMITS.userNameMax })
  }
}

export async function findUserById (db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * The account row, locked until the transaction ends, or a 401 when the account was deleted (a session
 * resolved just before the deletion committed must not act on it). On PostgreSQL: FOR KEY SHARE, which
 * waits for a deletion in progress (deleteAccount holds the row FOR UPDATE) and makes a deletion that
 * starts later wait for this transaction, so it sees what this one created; it does not wait for other
 * writers of the row (a nickname, a password) nor for other requests of the owner. Call it first in a
 * transaction that creates what blocks deleting the account or holds personal data (parcels,
 * withdrawals, top-ups, addresses, complaints...), before any other lock, so that the order of locks is
 * the deletion's. SQLite runs one write transaction at a time: the check inside it is enough.
 */
export async function lockLiveAccount (trx: Db, userId: number): Promise<void> {
  const q = trx.selectFrom('users').select('deleted_at').where('id', '=', userId)
  const row = await (dialectOf(trx) === 'postgres' ? q.forKeyShare() : q).executeTakeFirst()
  if (!row || row.deleted_at !== null) throw fail.unauthorized()
}

/** Runs `write` in a transaction that holds the account row (lockLiveAccount) first. */
export async function asLiveAccount<T> (db: Db, userId: number, write: (trx: Db) => Promise<T>): Promise<T> {
  return db.transaction().execute(async trx => {
    await lockLiveAccount(trx, userId)
    return write(trx)
  })
}

export type NewUserFields = Omit<NewUser, 'created_at' | 'updated_at' | 'role' | 'user_name_key'> & { role?: NewUser['role'] }

/** Inserts a user; a unique violation (name, phone, e-mail taken) is thrown to the caller. */
export async function insertUser (db: Db, clock: Clock, fields: NewUserFields): Promise<UserRow> {
  const now = iso(clock())
  return db.insertInto('users')
    .values({
      role: 'shopper',
      ...fields,
      ...(fields.user_name != null ? { user_name: displayUserName(fields.user_name), user_name_key: userNameKey(fields.user_name) } : {}),
      created_at: now,
      updated_at: now
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export function maskPhone (phone: string): string {
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone
}

/** s***r@example.com: the first and last character of the name, and the domain. */
export function maskEmail (email: string): string {
  const [name, domain] = email.split('@')
  if (!domain) return email
  return `${name.slice(0, 1)}***${name.length > 1 ? name.slice(-1) : ''}@${domain}`
}

export function toUserInfo (u: UserRow): UserInfo {
  return {
    id: Number(u.id),
    userName: u.user_name,
    nickname: u.nickname,
    phone: u.phone,
    email: u.email,
    avatar: u.avatar,
    role: u.role
  }
}

const IDENTIFIERS: IdentifierKind[] = ['user_name', 'phone', 'email']

/** Which identifier a body carries: exactly one of user_name, phone or email, else a 400. */
export function pickIdentifier (body: Partial<Record<IdentifierKind, string>>): { kind: IdentifierKind; value: string } {
  const given = IDENTIFIERS.filter(k => body[k] !== undefined)
  if (given.length === 0) throw fail.badRequest('login.identifierRequired', {}, { field: 'user_name' })
  if (given.length > 1) throw fail.badRequest('login.onlyOneIdentifier', {}, { field: given[1] })
  const kind = given[0]
  return { kind, value: normaliseIdentifier(kind, body[kind] as string) }
}

export function requirePassword (password: string | undefined): string {
  if (password === undefined) throw fail.badRequest('login.passwordRequired', {}, { field: 'password' })
  return password
}
