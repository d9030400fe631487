/**
 * The age gate and buying boxes: POST /api/ageVerify {birthDate, guardianConsent?}, POST /api/ageStatus {},
 * POST /api/casePurchase {caseId, slots | wholeCase: true, acknowledged: true, idempotencyKey}.
 */
import { Type } from 'typebox'
import type { AgeStatus, PurchaseRequest, PurchaseResult } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { ok } from '../http/envelope'
import { requireSession } from '../http/request'
import { strict } from '../http/schemas'
import { CASE_SIZE_MAX, EmptyBody, Id, IdempotencyKey, Slot } from '../http/shopSchemas'
import { ageRecord, statusOf, verifyAge } from '../domain/age'
import { purchase } from '../domain/purchase'

const AgeVerifyBody = Type.Object({
  birthDate: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  guardianConsent: Type.Optional(Type.Boolean())
}, strict)

const PurchaseBody = Type.Object({
  caseId: Id,
  slots: Type.Optional(Type.Array(Slot, { minItems: 1, maxItems: CASE_SIZE_MAX })),
  wholeCase: Type.Optional(Type.Literal(true)),
  acknowledged: Type.Literal(true),
  idempotencyKey: IdempotencyKey
}, strict)

export function purchaseRoutes (app: Api, ctx: AppContext): void {
  app.post('/api/ageVerify', { schema: { body: AgeVerifyBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    return ok<AgeStatus>(request, await verifyAge(ctx.db, ctx.clock, Number(user.id), request.body))
  })

  app.post('/api/ageStatus', { schema: { body: EmptyBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    return ok<AgeStatus>(request, statusOf(await ageRecord(ctx.db, ctx.clock, Number(user.id))))
  })

  app.post('/api/casePurchase', { schema: { body: PurchaseBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    const { result } = await purchase(ctx, Number(user.id), request.body as PurchaseRequest)
    return ok<PurchaseResult>(request, result)
  })
}
