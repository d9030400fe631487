/** POST /api/prizeList, /api/prizeDetail (own prizes), POST /api/liveFeed (public, masked names). */
import { Type } from 'typebox'
import type { FeedItem, PrizeDetail, PrizeListResponse, PrizeStatus } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { ok } from '../http/envelope'
import { requireSession } from '../http/request'
import { strict } from '../http/schemas'
import { Id, PageFields, PrizeStatusSchema } from '../http/shopSchemas'
import { FEED_DEFAULT, FEED_MAX, listPrizes, liveFeed, prizeDetail } from '../domain/prizes'

const PrizeListBody = Type.Object({ ...PageFields, status: Type.Optional(PrizeStatusSchema) }, strict)

export function prizeRoutes (app: Api, ctx: AppContext): void {
  app.post('/api/prizeList', { schema: { body: PrizeListBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    const { page, size, status } = request.body
    return ok<PrizeListResponse>(request, await listPrizes(ctx.db, Number(user.id), page, size, status as PrizeStatus | undefined))
  })

  app.post('/api/prizeDetail', { schema: { body: Type.Object({ prizeId: Id }, strict) } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    return ok<PrizeDetail>(request, await prizeDetail(ctx.db, Number(user.id), request.body.prizeId))
  })

  app.post('/api/liveFeed', {
    schema: { body: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: FEED_MAX })) }, strict) }
  }, async (request) => {
    return ok<FeedItem[]>(request, await liveFeed(ctx.db, request.body.limit ?? FEED_DEFAULT))
  })
}
