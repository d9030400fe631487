/** Raffle drops (types/raffle.ts): enter, status and result, the proof (domain/catalogue/raffle.ts). */
import { raffleRoutes as r } from '../../../types/raffle'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { raffleEnter, raffleProof, raffleStatus } from '../domain/catalogue/raffle'

export function raffleRoutesOf (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.enter, async ({ body, userId }) => raffleEnter(ctx.db, ctx.clock, body.dropId, userId))
  defineRoute(app, ctx, r.status, async ({ body, userId }) => raffleStatus(ctx.db, ctx.clock, body.dropId, userId ?? null))
  defineRoute(app, ctx, r.proof, async ({ body }) => raffleProof(ctx.db, ctx.clock, body.dropId))
}
