/**
 * The catalogue and cases (types/shop.ts): POST /api/seriesList, /api/seriesDetail, /api/caseCurrent,
 * /api/caseSwitch (login), /api/caseProof. Everything but the switch works without login.
 */
import { Type } from 'typebox'
import type { CaseProof, CaseView, SeriesDetail, SeriesListResponse } from '../../../types/shop'
import type { Api, AppContext } from '../context'
import { ok } from '../http/envelope'
import { currentSession, requireSession } from '../http/request'
import { strict } from '../http/schemas'
import { Id, PageBody, SeriesIdBody } from '../http/shopSchemas'
import { listSeries, requireSeries, seriesDetail } from '../domain/catalogue'
import { caseProof, currentCase, switchCase } from '../domain/cases'

export function catalogueRoutes (app: Api, ctx: AppContext): void {
  app.post('/api/seriesList', { schema: { body: PageBody } }, async (request) => {
    return ok<SeriesListResponse>(request, await listSeries(ctx.db, request.body.page, request.body.size))
  })

  app.post('/api/seriesDetail', { schema: { body: SeriesIdBody } }, async (request) => {
    return ok<SeriesDetail>(request, seriesDetail(await requireSeries(ctx.db, request.body.seriesId)))
  })

  app.post('/api/caseCurrent', { schema: { body: SeriesIdBody } }, async (request) => {
    const session = await currentSession(request, ctx)
    return ok<CaseView>(request, await currentCase(ctx.db, ctx.clock, request.body.seriesId, session ? Number(session.user.id) : null))
  })

  app.post('/api/caseSwitch', { schema: { body: SeriesIdBody } }, async (request) => {
    const { user } = await requireSession(request, ctx)
    return ok<CaseView>(request, await switchCase(ctx.db, ctx.clock, request.body.seriesId, Number(user.id)))
  })

  app.post('/api/caseProof', { schema: { body: Type.Object({ caseId: Id }, strict) } }, async (request) => {
    return ok<CaseProof>(request, await caseProof(ctx.db, request.body.caseId))
  })
}
