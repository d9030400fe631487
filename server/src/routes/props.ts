/** Props (types/props.ts): state, buying cards, using props, what they showed. */
import { propRoutes as r } from '../../../types/props'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { buyProps, caseHints, propHistory, propsState, useProp } from '../domain/prizes/props'
import { dropOfCase, requireLetIn } from '../domain/catalogue/dropQueue'

export function propRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.state, async ({ userId }) => propsState(ctx.db, ctx.clock, userId))
  defineRoute(app, ctx, r.buy, async ({ body, userId }) => buyProps(ctx, userId, body))
  // a drop's waiting room: props on its cases only for those it let in
  defineRoute(app, ctx, r.use, async ({ body, userId }) => {
    await requireLetIn(ctx.db, ctx.clock, await dropOfCase(ctx.db, body.caseId), userId)
    return useProp(ctx, userId, body)
  })
  defineRoute(app, ctx, r.caseHints, async ({ body, userId }) => caseHints(ctx.db, ctx.clock, userId, body.caseId))
  defineRoute(app, ctx, r.history, async ({ body, userId }) => propHistory(ctx.db, ctx.clock, userId, body.page, body.size))
}
