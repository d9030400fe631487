/** The catalogue and cases (types/shop.ts shopRoutes): series, the case shown, switching, proofs. */
import { shopRoutes as r } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { listSeries, requireSeries, seriesDetail } from '../domain/catalogue/catalogue'
import { isSearch, publishedTags, searchSeries, suggestSeries } from '../domain/catalogue/seriesSearch'
import { caseProof, currentCase, switchCase } from '../domain/catalogue/cases'
import { soldOutSeries } from '../domain/catalogue/stock'
import { latestDropInfo, openDueDrops } from '../domain/catalogue/drops'

export function catalogueRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.seriesList, async ({ body }) => {
    const found = isSearch(body) ? await searchSeries(ctx.db, ctx.dialect, ctx.clock, body) : await listSeries(ctx.db, body.page, body.size)
    return body.page === 1 ? { ...found, tags: await publishedTags(ctx.db) } : found
  })
  defineRoute(app, ctx, r.seriesSuggest, async ({ body }) => suggestSeries(ctx.db, body.q))
  defineRoute(app, ctx, r.seriesDetail, async ({ body }) => {
    const series = await requireSeries(ctx.db, body.seriesId)
    await openDueDrops(ctx.db, ctx.clock, body.seriesId)
    return seriesDetail(series, await soldOutSeries(ctx.db, [body.seriesId]), await latestDropInfo(ctx.db, ctx.clock, body.seriesId))
  })
  defineRoute(app, ctx, r.caseCurrent, async ({ body, session }) =>
    currentCase(ctx.db, ctx.clock, body.seriesId, session ? Number(session.user.id) : null))
  defineRoute(app, ctx, r.caseSwitch, async ({ body, userId }) => switchCase(ctx.db, ctx.clock, body.seriesId, userId))
  defineRoute(app, ctx, r.caseProof, async ({ body }) => caseProof(ctx.db, body.caseId))
}
