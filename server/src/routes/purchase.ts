/**
 * The age gate and buying boxes (types/shop.ts shopRoutes): ageVerify, ageStatus, the guardian's
 * consent (guardianCode, guardianConfirm), purchaseCheck, casePurchase.
 */
import { shopRoutes as r, type GuardianRefusalData } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { ApiFailure, fail } from '../core/errors'
import { enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { translate } from '../i18n/messages'
import { CODE_TTL_MS } from '../security/codes'
import { RULES } from '../security/rules'
import { normaliseIdentifier } from '../domain/account/users'
import {
  ageRecord, guardianPurpose, guardianTarget, markGuardianRequested, MINOR_DAILY_CAP_CENTS, recordGuardianConsent, statusOf, verifyAge,
  type GuardianContext
} from '../domain/account/age'
import { checkPurchase, purchase } from '../domain/purchase/purchase'
import { tellOwnSlot } from '../domain/purchase/slotBuyer'
import { dropOfCase, requireLetIn, servedInRoom } from '../domain/catalogue/dropQueue'
import { checkDropLimits, withinDropLimits } from '../domain/catalogue/dropLimits'
import { nudgeRoom } from '../domain/catalogue/roomHold'
import { kujiSeriesOfCase, requireTurnNow } from '../domain/catalogue/kuji'
import { sendCode } from '../http/sendCode'

export function purchaseRoutes (app: Api, ctx: AppContext): void {
  const guardianContext = (): GuardianContext => ({ now: ctx.clock(), canRequest: ctx.sms !== null })
  const status = async (userId: number) => statusOf(await ageRecord(ctx.db, ctx.clock, userId), guardianContext())

  defineRoute(app, ctx, r.ageVerify, async ({ body, userId }) => verifyAge(ctx.db, ctx.clock, userId, body, guardianContext()))
  defineRoute(app, ctx, r.ageStatus, async ({ userId }) => status(userId))

  /**
   * The guardian's consent by a code to the guardian's phone, which the guardian tells the minor.
   * Decided: a code, not a link to open. The code reuses the code machinery and its rules as they are;
   * the guardian agrees by handing the code over, so nothing outside the app (a public confirmation
   * page, a link that anyone the SMS is forwarded to could open) is needed; and Chinese SMS templates
   * with links need extra review by the carriers, codes are the common case.
   */
  defineRoute(app, ctx, r.guardianCode, async ({ body, userId, request }) => {
    const target = await guardianTarget(ctx.db, ctx.clock, userId, body.phone === undefined ? undefined : normaliseIdentifier('phone', body.phone))
    const sms = ctx.sms
    if (!sms) {
      // the shopper is told to ask the shop; the operators read what to set here
      request.log.warn('a minor asked for a guardian\'s consent, but no SMS can be sent: set SMS_PROVIDER_URL (and SMS_API_KEY) so that guardian codes go out')
      throw fail.unprocessable('guardian.unavailable', {}, { reason: 'unavailable' } satisfies GuardianRefusalData)
    }
    const text = (code: string) => translate(request.locale, 'guardian.smsText', {
      code, minutes: Math.round(CODE_TTL_MS / 60000), account: userId, cap: Math.round(MINOR_DAILY_CAP_CENTS / 100)
    })
    await sendCode(request, ctx, guardianPurpose(userId), target, code => sms.send(target, text(code)),
      [[RULES.guardianCodePerAccount, `user:${userId}`]])
    await markGuardianRequested(ctx.db, ctx.clock, userId, target)
    return status(userId)
  })

  defineRoute(app, ctx, r.guardianConfirm, async ({ body, userId, request }) => {
    const record = await ageRecord(ctx.db, ctx.clock, userId)
    if (record?.guardianConsent) return status(userId)
    const target = record?.guardianPhone
    if (!target) throw fail.unprocessable('guardian.noRequest', {}, { field: 'code' })
    await enforceLimits(ctx, [[RULES.loginPerIp, request.ip]])
    // a wrong code is a 422 naming `code` (a 401 would log the minor out for a typo)
    if (!await ctx.codes.verify(guardianPurpose(userId), target, body.code)) throw fail.unprocessable('code.invalid', {}, { field: 'code' })
    if (!await recordGuardianConsent(ctx.db, ctx.clock, userId, target)) throw fail.unprocessable('code.invalid', {}, { field: 'code' })
    return status(userId)
  })

  // a slot the caller bought is told as such (slot.soldToYou), with the purchase that bought it
  // a drop's waiting room: only those it let in may buy from its cases (domain/catalogue/dropQueue.ts)
  const letIn = async (caseId: number, userId: number) => requireLetIn(ctx.db, ctx.clock, await dropOfCase(ctx.db, caseId), userId)
  defineRoute(app, ctx, r.purchaseCheck, async ({ body, userId }) => {
    await letIn(body.caseId, userId)
    // a kuji set's draw: only in the caller's turn (the purchase checks it again in its transaction)
    const kuji = await kujiSeriesOfCase(ctx.db, body.caseId)
    if (kuji !== null) await requireTurnNow(ctx.db, ctx.clock, kuji, userId)
    await checkDropLimits(ctx.db, ctx.clock, body.caseId, userId, body)
    return tellOwnSlot(ctx.db, userId, body.caseId, () => checkPurchase(ctx, userId, body))
  })
  // counted once committed (a replay by the same key is not a new purchase), and each refusal by its reason
  // on PostgreSQL the purchase's statement checks the session again (migration 0033): a session this
  // process read lately lets the caller in without a round trip of its own
  defineRoute(app, ctx, r.casePurchase, async ({ body, userId, session, request }) => {
    const dropId = await dropOfCase(ctx.db, body.caseId)
    await requireLetIn(ctx.db, ctx.clock, dropId, userId)
    try {
      // a drop's limits per account: this purchase's boxes reserved within them, settled to what it bought
      const { result, replayed } = await withinDropLimits(ctx.db, ctx.clock, body.caseId, userId, body,
        () => tellOwnSlot(ctx.db, userId, body.caseId, () => purchase(ctx, userId, body, session.sessionId)), r => r.prizes.length)
      if (!replayed) ctx.metrics.purchased()
      // a buyer from a drop with a waiting room gives their place to the next in line
      // (the purchase is made whatever befalls this: a failure here is logged, and the room's next turn
      // frees the place all the same when the buyer's time runs out)
      if (!replayed && dropId !== null) {
        await servedInRoom(ctx.db, ctx.clock, dropId, userId, body.caseId).catch(err => { request.log.error({ err }, 'drop room: the buyer\'s place was not given on') })
        // those this process holds in line hear now if the next were let in, or the last box went
        nudgeRoom(ctx.db, dropId)
      }
      return result
    } catch (err) {
      if (err instanceof ApiFailure && err.httpStatus === 200) ctx.metrics.purchaseRefused(err.key, err.code)
      throw err
    }
  }, { sessionRechecked: true })
}
