/**
 * A box purchase on PostgreSQL in one round trip (issue 25 item 1). The step-by-step path
 * (purchase.ts purchaseInSteps) makes about ten round trips while it holds its case's row lock, so the
 * purchases of one case took turns at the network's pace. Here one statement, `select shop_purchase(...)`
 * (the function migration 0026 installs), runs on its own (autocommit: its own transaction) and does
 * it all: the idempotency key, the live account, every rule of purchase.ts in the same order, the
 * moves, the books, the prizes with their designs, the key with the answer.
 *
 * What stays here: the body's own checks (1.), the clock's values (now, the shop day and month), the
 * rules' constants, and turning the function's answer into the same result or ApiFailure as the
 * step-by-step path (the refusal builders are shared; messages are translated as for any ApiFailure).
 * The idempotency rule is idempotency.ts's: a key used before answers its first answer (replay) or 409,
 * whatever else the request would meet; the function looks the key up first and again before any
 * refusal (a twin may have committed while it waited on the case's lock), and a failure of the
 * statement (the key's unique index hit by a twin, a deadlock) is looked up and retried as there.
 *
 * Purchases that arrive while another statement of purchases is in the database go together in the next
 * one (purchaseBatch.ts): one transaction and one commit for all, each call seeing what the one before
 * it did, each answered only after the commit; when that statement fails, each runs again alone.
 *
 * The rare sell-out of a series' last case on sale needs a new case, made (shuffled, salted, committed)
 * by cases.ts createCase in TypeScript: the function then refuses to finish alone (BB001, everything
 * undone) and the purchase runs again inside a transaction (BEGIN, the function, createCase's
 * statements, COMMIT).
 */
import { eventsOf } from '../../db/events'
import { CompiledQuery } from 'kysely'
import type { PurchaseRequest, PurchaseResult } from '../../../../types/shop'
import { SPENDING_KINDS, shopMonthStart, spendingCapRefusal } from '../account/spendingCaps'
import { ADULT_AGE, MIN_PURCHASE_AGE, MINOR_DAILY_CAP_CENTS, ageRefusal } from '../account/age'
import { createCase } from '../catalogue/cases'
import { shopDay, shopDayStart } from '../../core/days'
import { checkStored, requestHash, storedAnswer, type IdempotentCall, type StoredRow } from '../money/idempotency'
import { XRAY_CARDS_PER_WHOLE_CASE } from '../prizes/propCards'
import { checkSlotList, purchaseRefusal, type PurchaseDeps } from './purchaseRules'
import { ApiFailure, fail } from '../../core/errors'
import { isRetryableConflict, isUniqueViolation } from '../../db/errors'
import { iso } from '../../core/clock'
import { batchedPurchase, purchaseCall } from './purchaseBatch'
import { nameStatement } from '../../db/named'
import type { Db } from '../../db'
import { SESSION_IDLE_MS } from '../account/sessions'

export const PURCHASE_SCOPE = 'casePurchase'

/** The function's refusal: a code and what it names. */
interface Refusal {
  code: string
  seriesId?: number
  slot?: number
  size?: number
  priceCents?: number
  kind?: 'minor' | 'daily' | 'monthly'
  limitCents?: number
  leftCents?: number
  shortfallCents?: number
  totalCents?: number
}

type Answer =
  | { stored: StoredRow }
  | { refusal: Refusal }
  | { result: PurchaseResult; newCase: boolean; seriesId: number }

/**
 * Not a refusal: the case is a kuji set, whose draws run step by step (migration 0048); purchase.ts
 * runs it so. Thrown before anything moved or was stored.
 */
export class KujiSteps extends Error {
  constructor (readonly seriesId: number) {
    super(`a set of kuji series ${seriesId} is bought step by step`)
    this.name = 'KujiSteps'
  }
}

/** The same ApiFailure the step-by-step path throws for this refusal. */
export function failureOf (r: Refusal): ApiFailure {
  switch (r.code) {
    case 'auth.required': return fail.unauthorized()
    case 'age.required': return ageRefusal.required()
    case 'age.tooYoung': return ageRefusal.tooYoung()
    case 'age.guardianRequired': return ageRefusal.guardianRequired()
    case 'case.notFound': return purchaseRefusal.caseNotFound()
    case 'case.notOnSale': return purchaseRefusal.caseNotOnSale()
    case 'slot.outOfRange': return purchaseRefusal.slotOutOfRange(r.slot!, r.size!)
    case 'slot.sold': return purchaseRefusal.slotSold(r.slot!)
    case 'slot.reserved': return purchaseRefusal.slotReserved(r.slot!)
    case 'purchase.priceChanged': return purchaseRefusal.priceChanged(Number(r.priceCents))
    case 'spending.cap': return spendingCapRefusal(r.kind!, Number(r.limitCents), Number(r.leftCents))
    case 'wallet.insufficient': return purchaseRefusal.insufficient(Number(r.shortfallCents), Number(r.totalCents))
  }
  throw new Error(`shop_purchase answered an unknown refusal ${JSON.stringify(r)}`)
}

/** The function raised: the series needs a new case (run again in a transaction). */
const NEEDS_NEW_CASE = 'BB001'
/** The function raised a refusal found while moving (its message is the refusal). */
const REFUSED_WHILE_MOVING = 'BB002'
const sqlState = (err: unknown) => (err as { code?: unknown } | null)?.code

/** The function's parameters, in order, by their casts (the last: "in a transaction"). */
const CASTS = [
  '::bigint', '::text', '::text', '::text', '::bigint', '::integer[]', '::bigint',
  '::timestamptz', '::text', '::timestamptz', '::timestamptz', '::integer', '::integer', '::bigint', '::integer',
  '::text[]', '::text', '::bigint', '::timestamptz', '::boolean'
]
const CALL = `select ${purchaseCall(CASTS)} as answer`
nameStatement(CALL)

/** One purchase in a statement of its own: all its parameters, "in a transaction" last. */
async function callAlone (db: Db, parameters: unknown[]): Promise<Answer> {
  const { rows } = await db.executeQuery<{ answer: Answer }>(CompiledQuery.raw(CALL, parameters))
  return rows[0].answer
}

function callPurchase (db: Db, parameters: unknown[], inTransaction: boolean): Promise<Answer> {
  return callAlone(db, [...parameters, inTransaction])
}

/**
 * `sessionId`: the session the request came in on, which the statement checks again first (migration
 * 0033: the route may have let it in on what the process remembered of it); null checks none.
 */
export async function purchaseOnPostgres (deps: PurchaseDeps, userId: number, request: PurchaseRequest, sessionId: number | null = null): Promise<{ result: PurchaseResult; replayed: boolean }> {
  const { db, clock } = deps
  const { idempotencyKey, ...body } = request
  const call: IdempotentCall = { userId, key: idempotencyKey, scope: PURCHASE_SCOPE, body }
  const hash = requestHash(call.scope, body)
  for (let attempt = 1; ; attempt++) {
    let answer: Answer
    try {
      // 1. the body
      checkSlotList(body)
      const now = clock()
      const parameters = [
        userId, idempotencyKey, call.scope, hash,
        body.caseId, body.slots ?? null, body.priceCents ?? null,
        iso(now), shopDay(now), iso(shopDayStart(now)), iso(shopMonthStart(now)),
        MIN_PURCHASE_AGE, ADULT_AGE, MINOR_DAILY_CAP_CENTS, body.wholeCase ? XRAY_CARDS_PER_WHOLE_CASE : 0,
        SPENDING_KINDS, `purchase:${userId}:${idempotencyKey}`, sessionId, iso(now - SESSION_IDLE_MS)
      ]
      try {
        // with the purchases that came meanwhile, in one statement (purchaseBatch.ts); alone when none did
        answer = await batchedPurchase(db, parameters, CASTS, callAlone)
      } catch (err) {
        if (sqlState(err) !== NEEDS_NEW_CASE) throw err
        // the series' last case on sale sold out: again, in a transaction that makes the next case
        answer = await db.transaction().execute(async trx => {
          const again = await callPurchase(trx, parameters, true)
          if ('result' in again && again.newCase) await createCase(trx, clock, again.seriesId)
          return again
        })
      }
    } catch (err) {
      const failure = sqlState(err) === REFUSED_WHILE_MOVING ? failureOf(JSON.parse((err as Error).message) as Refusal) : err
      // as idempotency.ts: was the key used before (or just now, by a twin)? then that first answer (or 409)
      const first = await storedAnswer<PurchaseResult>(db, call, hash)
      if (first.found) return { result: first.result, replayed: true }
      if ((isUniqueViolation(err) || isRetryableConflict(err)) && attempt < 3) continue
      throw failure
    }
    if ('stored' in answer) {
      const first = checkStored<PurchaseResult>(call, hash, answer.stored)
      if (first.found) return { result: first.result, replayed: true }
      throw new Error('shop_purchase answered a stored key that checkStored did not find')
    }
    if ('refusal' in answer) {
      if (answer.refusal.code === 'kuji.steps') throw new KujiSteps(Number(answer.refusal.seriesId))
      throw failureOf(answer.refusal)
    }
    // the function's statement (or its transaction) has committed: its ledger lines are told to the
    // metrics as postTransaction tells them on the other path (the same lines, zeros left out)
    const events = eventsOf(db)
    if (events?.heard('ledgerLines')) {
      const r = answer.result
      const lines = [
        { account: 'user_credit' as const, amountCents: -r.spentCreditCents },
        { account: 'user_cash' as const, amountCents: -r.spentCashCents },
        { account: 'house_sales' as const, amountCents: r.totalCents }
      ].filter(l => l.amountCents !== 0)
      events.emit('ledgerLines', lines)
    }
    return { result: answer.result, replayed: false }
  }
}
