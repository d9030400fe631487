/** Combine (types/combine.ts): seeds, recipes, combining and its proof. */
import { combineRoutes as r, operatorCombineRoutes as o } from '../../../types/combine'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { combineDetail, combinePrizes, listRecipes, rotateSeed, saveRecipe, seedOf, setClientSeed } from '../domain/prizes/combine'

export function combineRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.seed, async ({ userId }) => seedOf(ctx.db, ctx.clock, userId))
  defineRoute(app, ctx, r.clientSeed, async ({ body, userId }) => setClientSeed(ctx, userId, body.clientSeed))
  defineRoute(app, ctx, r.rotate, async ({ userId }) => rotateSeed(ctx, userId))
  defineRoute(app, ctx, r.recipes, async ({ body }) => listRecipes(ctx.db, body.seriesId))
  defineRoute(app, ctx, r.combine, async ({ body, userId }) => combinePrizes(ctx, userId, body))
  defineRoute(app, ctx, r.detail, async ({ body, userId }) => combineDetail(ctx.db, userId, body.combineId))
  defineRoute(app, ctx, o.recipes, async ({ body }) => listRecipes(ctx.db, body.seriesId, true))
  defineRoute(app, ctx, o.save, async ({ body, userId }) => saveRecipe(ctx.db, ctx.dialect, ctx.clock, userId, body))
}
