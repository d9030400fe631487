/** Props (types/props.ts): state, buying cards, using props, what they showed. */
import { propRoutes as r } from '../../../types/props'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { buyProps, caseHints, propHistory, propsState, useProp } from '../domain/prizes/props'

export function propRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.state, async ({ userId }) => propsState(ctx.db, ctx.clock, userId))
  defineRoute(app, ctx, r.buy, async ({ body, userId }) => buyProps(ctx, userId, body))
  defineRoute(app, ctx, r.use, async ({ body, userId }) => useProp(ctx, userId, body))
  defineRoute(app, ctx, r.caseHints, async ({ body, userId }) => caseHints(ctx.db, ctx.clock, userId, body.caseId))
  defineRoute(app, ctx, r.history, async ({ body, userId }) => propHistory(ctx.db, ctx.clock, userId, body.page, body.size))
}
