/** Drops (types/drop.ts): the public proof, and the operator's drop screen (domain/catalogue/drops.ts). */
import { dropRoutes as r } from '../../../types/drop'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { createDrop, dropProof, seriesDrops } from '../domain/catalogue/drops'
import { proofOf } from '../domain/catalogue/cases'
import { queueAnswer } from '../domain/catalogue/roomHold'

export function dropRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.queue, async ({ body, userId, request }) =>
    queueAnswer(ctx.db, ctx.clock, body.dropId, userId, { waitMs: body.waitMs ?? 0, seenPosition: body.seenPosition }, err => request.log.error({ err }, 'drop room: a look at the room failed')))
  defineRoute(app, ctx, r.proof, async ({ body }) => dropProof(ctx.db, ctx.clock, body.dropId, proofOf))
  defineRoute(app, ctx, r.list, async ({ body }) => seriesDrops(ctx.db, ctx.clock, body.seriesId))
  defineRoute(app, ctx, r.create, async ({ body, userId }) => createDrop(ctx.db, ctx.clock, userId, body))
}
