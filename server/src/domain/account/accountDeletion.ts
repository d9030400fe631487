/**
 * Deleting an account (PIPL, issue 10): what blocks it, and the erasure itself.
 */
import type { Db } from '../../db'
import { iso, type Clock } from '../../core/clock'
import { fail } from '../../core/errors'
import { guardianPurpose } from './age'
import { writeAudit } from '../ops/audit'
import { eraseShowContent } from '../community/showErasure'
import { eraseUploadsOf } from '../media/mediaStore'
import { PREPAY_TTL_MS } from '../../providers/wechatpay'
import { lockOperators } from '../ops/operators'
import type { DeleteBlockedData } from '../../../../types/security'
import { release } from '../catalogue/stock'

const yuan = (cents: number) => (cents / 100).toFixed(2)

/** The nickname an erased account shows where its orders are listed. */
export const DELETED_NICKNAME = '—'

interface DeletionCheck { cash: number; credit: number; prizes: number; cards: number }

/**
 * What stands in the way of deleting the account (throws the 422 with DeleteBlockedData), in order:
 * cash held (withdraw it first), a withdrawal under way, a parcel on its way, a WeChat Pay top-up that
 * could still be paid (its prepay is alive: the money would land in an account nobody can use), and,
 * without `forfeit`, credit, prizes in the warehouse or prop cards that would lapse. Decided: prizes
 * in the warehouse do not block (the owner may not want them shipped); they lapse with the account
 * once the owner agrees, like credit and cards, since none of them can become cash.
 */
async function deletionCheck (db: Db, clock: Clock, userId: number, forfeit: boolean): Promise<DeletionCheck> {
  const now = clock()
  const wallet = await db.selectFrom('wallets').select(['cash_cents', 'credit_cents']).where('user_id', '=', userId).executeTakeFirst()
  const cash = Number(wallet?.cash_cents ?? 0)
  const credit = Number(wallet?.credit_cents ?? 0)
  if (cash > 0) throw fail.unprocessable('security.deleteCash', { cash: yuan(cash) }, { reason: 'cash', cashCents: cash } satisfies DeleteBlockedData)
  const withdrawing = await db.selectFrom('withdrawals').select('id').where('user_id', '=', userId).where('status', 'in', ['requested', 'approved']).executeTakeFirst()
  if (withdrawing) throw fail.unprocessable('security.deleteWithdrawal', {}, { reason: 'withdrawal' } satisfies DeleteBlockedData)
  const parcel = await db.selectFrom('shipments').select('id').where('user_id', '=', userId).where('status', 'in', ['requested', 'shipping']).executeTakeFirst()
  if (parcel) throw fail.unprocessable('security.deleteParcel', {}, { reason: 'parcel' } satisfies DeleteBlockedData)
  // a WeChat notification pays an order even after it was canceled (orders.ts), as long as its prepay lives
  const payable = await db.selectFrom('orders').select(eb => eb.fn.max('prepay_at').as('at'))
    .where('user_id', '=', userId).where('channel', 'in', ['wechat_jsapi', 'wechat_h5']).where('status', 'in', ['created', 'canceled'])
    .where('prepay_at', '>', iso(now - PREPAY_TTL_MS)).executeTakeFirst()
  if (payable?.at) {
    const minutes = Math.max(1, Math.ceil((Date.parse(String(payable.at)) + PREPAY_TTL_MS - now) / 60000))
    throw fail.unprocessable('security.deletePayment', { minutes }, { reason: 'payment' } satisfies DeleteBlockedData)
  }
  const operators = await db.selectFrom('users').select('id').where('role', '=', 'operator').execute()
  if (operators.length <= 1 && operators.some(o => Number(o.id) === userId)) {
    throw fail.unprocessable('operators.lastOperatorDelete', {}, { reason: 'last_operator' } satisfies DeleteBlockedData)
  }
  const held = await db.selectFrom('prizes').select(eb => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('status', '=', 'warehouse').executeTakeFirst()
  const prizes = Number(held?.n ?? 0)
  const inventory = await db.selectFrom('prop_inventory').select(eb => eb.fn.sum<number>('count').as('n')).where('user_id', '=', userId).executeTakeFirst()
  const cards = Number(inventory?.n ?? 0)
  if ((credit > 0 || prizes > 0 || cards > 0) && !forfeit) {
    throw fail.unprocessable('security.deleteForfeit', { credit: yuan(credit), prizes, cards },
      { reason: 'forfeit', creditCents: credit, prizes, cards } satisfies DeleteBlockedData)
  }
  return { cash, credit, prizes, cards }
}

/** The refusals of deleteAccount, checked before the owner re-authenticates (so a code is not spent on a refusal). */
export async function checkDeletion (db: Db, clock: Clock, userId: number, forfeit: boolean): Promise<void> {
  await deletionCheck(db, clock, userId, forfeit)
}

/**
 * Deletes the account (PIPL), after deletionCheck passes again inside one transaction with the account
 * row locked FOR UPDATE first, then the wallet row: every request that creates what blocks the deletion
 * or holds personal data (parcels, withdrawals, purchases, prepays, addresses, birth dates...) holds the
 * account row while it writes (lockLiveAccount), so none slips in between, and none comes after. Erased: user name, phone,
 * e-mail, nickname, avatar, password, role; logins (identities), addresses, codes sent to its phone or
 * address, codes sent to a guardian for it, the birth date and the guardian's consent (with the number) and its correction, its complaints (what it wrote and was answered), the limits, prop cards and X-ray holds, the stored
 * answers of its idempotency keys (a parcel's carries its address), the device and address of every session (all
 * end), of its error reports, and the name, phone and street of its past parcels (the region stays for
 * the books of shipping). Kept, owned by the anonymous user row as the law requires: orders, purchases,
 * prizes, parcels, withdrawals and every ledger line. The phone, e-mail and user name are free again.
 */
export async function deleteAccount (db: Db, clock: Clock, dialect: 'sqlite' | 'postgres', userId: number, forfeit: boolean): Promise<number> {
  const now = iso(clock())
  return db.transaction().execute(async trx => {
    // the shop keeps an operator: the last one makes another account an operator first (the operators'
    // rows are locked first, in id order, as setRole does, so two operators deleting take turns)
    const operators = await lockOperators(trx, dialect)
    // then the account row, FOR UPDATE: every request that creates what blocks the deletion or holds
    // personal data takes FOR KEY SHARE on it first (lockLiveAccount), a login FOR SHARE (sessions.ts);
    // the deletion waits for those in progress and sees what they created, later ones wait for it and
    // find the account deleted
    const accountQuery = trx.selectFrom('users').select('deleted_at').where('id', '=', userId)
    const account = await (dialect === 'postgres' ? accountQuery.forUpdate() : accountQuery).executeTakeFirst()
    if (!account || account.deleted_at !== null) throw fail.unauthorized()
    const walletQuery = trx.selectFrom('wallets').select('user_id').where('user_id', '=', userId)
    await (dialect === 'postgres' ? walletQuery.forUpdate() : walletQuery).execute()
    const { credit, prizes, cards } = await deletionCheck(trx, clock, userId, forfeit)
    if (operators.includes(userId) && operators.length <= 1) throw fail.unprocessable('operators.lastOperatorDelete', {}, { reason: 'last_operator' } satisfies DeleteBlockedData)
    // its prizes in the warehouse lapse with it: their figures are free stock again (catalogue/stock.ts)
    const lapsed = await trx.selectFrom('prizes').select('design_id').where('user_id', '=', userId).where('status', '=', 'warehouse').execute()
    await release(trx, lapsed.map(p => Number(p.design_id)))
    const user = await trx.selectFrom('users').select(['phone', 'email']).where('id', '=', userId).executeTakeFirstOrThrow()
    const targets = [user.phone, user.email].filter((x): x is string => !!x)
    if (targets.length) await trx.deleteFrom('one_time_codes').where('target', 'in', targets).execute()
    // and the codes sent to a guardian's phone for it (the number itself goes with age_checks)
    await trx.deleteFrom('one_time_codes').where('purpose', '=', guardianPurpose(userId)).execute()
    for (const table of ['identities', 'addresses', 'spending_limits', 'birth_date_corrections', 'age_checks', 'prop_inventory', 'slot_reservations', 'complaints', 'helper_tasks'] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute()
    }
    // the player show: its posts (photos and words), comments, likes and reports go
    // (docs/decisions/player-show-deleted-accounts.md)
    await eraseShowContent(trx, userId)
    // what it uploaded (its posts' photos, the contact screenshots it had read) goes, bucket copies too,
    // unless the shop shows the file (a series cover, a design, another's post or avatar)
    await eraseUploadsOf(trx, clock, userId)
    // the keys stay (each records that its request was applied once); their stored answers, which a
    // replay would send and which can carry an address, go: no session is left to replay them
    await trx.updateTable('idempotency_keys').set({ response: JSON.stringify({ erased: true }) }).where('user_id', '=', userId).execute()
    await trx.updateTable('error_reports').set({ user_id: null, ip: null, user_agent: null }).where('user_id', '=', userId).execute()
    await trx.updateTable('shipments').set({ name: DELETED_NICKNAME, phone: '', detail: '', updated_at: now }).where('user_id', '=', userId).execute()
    await trx.updateTable('users').set({
      user_name: null, user_name_key: null, phone: null, email: null, nickname: DELETED_NICKNAME, avatar: null,
      password_hash: null, role: 'shopper', deleted_at: now, updated_at: now
    }).where('id', '=', userId).execute()
    const ended = await trx.updateTable('sessions').set({ revoked_at: now, ip: null, user_agent: null })
      .where('user_id', '=', userId).where('revoked_at', 'is', null).executeTakeFirst()
    // sessions already ended lose their address and device too
    await trx.updateTable('sessions').set({ ip: null, user_agent: null }).where('user_id', '=', userId).execute()
    await writeAudit(trx, clock, { actorId: userId, action: 'account.delete', entity: 'user', entityId: userId, detail: { before: { deleted: false }, after: { deleted: true, creditLapsedCents: credit, prizesLapsed: prizes, cardsLapsed: cards } } })
    return Number(ended.numUpdatedRows)
  })
}
