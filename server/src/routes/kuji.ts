/** 一番赏 (types/kuji.ts): the board, the line, a set's proof (domain/catalogue/kuji.ts). Draws are casePurchase calls. */
import { kujiRoutes as r } from '../../../types/kuji'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { kujiBoard, kujiSetProof, kujiTurn } from '../domain/catalogue/kuji'

export function kujiRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.board, async ({ body, userId }) => kujiBoard(ctx.db, ctx.clock, body.seriesId, userId ?? null))
  defineRoute(app, ctx, r.turn, async ({ body, userId }) => kujiTurn(ctx.db, ctx.clock, body.seriesId, userId, body.action))
  defineRoute(app, ctx, r.proof, async ({ body }) => kujiSetProof(ctx.db, body.setId))
}
