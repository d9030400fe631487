/**
 * The series editor's stock screen (issue 50): each design's figures on hand, what cases and prizes hold
 * of them and what is free; an operator's count is saved in one transaction with the series row locked,
 * never below what is held, never over a count that changed since the screen read it, and audited. A
 * series on sale that had run out gets its next case as soon as the count lets the warehouse fill one,
 * so 已售罄 / Sold out ends for every shopper at once, and those who asked to be told are told.
 */
import type { SeriesStock, StockSaveRequest } from '../../../../types/editor'
import type { Db } from '../../db'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { writeAudit } from '../ops/audit'
import { createCase, openCaseCount } from './cases'
import { figuresNeeded, lockSeriesForStock } from './stock'

/** The stock screen of a series (drafts too). */
export async function seriesStock (db: Db, seriesId: number): Promise<SeriesStock> {
  const series = await db.selectFrom('series').select(['id', 'status', 'hidden_ppm', 'kind', 'dc_winners']).where('id', '=', seriesId).executeTakeFirst()
  if (!series) throw fail.notFound('editor.notFound')
  const rows = await db.selectFrom('designs').select(['id', 'name', 'name_en', 'rarity', 'stock', 'committed', 'tier', 'tickets'])
    .where('series_id', '=', seriesId).orderBy('sort').orderBy('id').execute()
  // a case takes one figure of each design it may hold; a kuji set a tier design's tickets and one Last One
  const perCase = new Map(rows.map(d => [Number(d.id), figuresNeeded(d, series.kind, series.hidden_ppm, series.dc_winners)]))
  const designs = rows.map(d => {
    const stock = Number(d.stock)
    const committed = Number(d.committed)
    return {
      designId: Number(d.id),
      name: { zh: d.name, en: d.name_en },
      rarity: d.rarity,
      stock,
      committed,
      free: stock - committed,
      inEveryCase: perCase.get(Number(d.id))! > 0
    }
  })
  const needed = designs.filter(d => d.inEveryCase)
  const casesFillable = needed.length ? Math.max(0, Math.min(...needed.map(d => Math.floor(d.free / perCase.get(d.designId)!)))) : 0
  const openCases = await openCaseCount(db, seriesId)
  return {
    seriesId,
    status: series.status,
    designs,
    casesFillable,
    openCases,
    soldOut: series.status === 'on_sale' && openCases === 0 && casesFillable === 0
  }
}

/** POST /api/operator/stockSave: the counts, checked and set together, or nothing changes. */
export async function saveStock (db: Db, clock: Clock, actorId: number, req: StockSaveRequest): Promise<SeriesStock> {
  const seen = new Set<number>()
  req.designs.forEach((d, i) => {
    if (seen.has(d.designId)) throw fail.field(`designs.${i}.designId`, 'editor.designTwice')
    seen.add(d.designId)
  })
  await db.transaction().execute(async trx => {
    await lockSeriesForStock(trx, req.seriesId)
    const series = await trx.selectFrom('series').select(['id', 'status']).where('id', '=', req.seriesId).executeTakeFirst()
    if (!series) throw fail.notFound('editor.notFound')
    const rows = await trx.selectFrom('designs').select(['id', 'stock', 'committed']).where('series_id', '=', req.seriesId).execute()
    const byId = new Map(rows.map(r => [Number(r.id), r]))
    const changes: Array<{ designId: number; before: number; after: number }> = []
    for (const [i, d] of req.designs.entries()) {
      const row = byId.get(d.designId)
      if (!row) throw fail.field(`designs.${i}.designId`, 'stock.designUnknown')
      const stock = Number(row.stock)
      const committed = Number(row.committed)
      if (stock !== d.was) {
        throw new ApiFailure(409, 'stock.changed', { stock }, { field: `designs.${i}.stock`, stock, committed })
      }
      if (d.stock < committed) {
        throw new ApiFailure(422, 'stock.belowCommitted', { committed }, { field: `designs.${i}.stock`, stock, committed })
      }
      if (d.stock !== stock) changes.push({ designId: d.designId, before: stock, after: d.stock })
    }
    if (changes.length === 0) return
    for (const c of changes) {
      // the CHECK (committed <= stock) holds it too: the committed count only moves with the series row locked here
      await trx.updateTable('designs').set({ stock: c.after }).where('id', '=', c.designId).execute()
    }
    // a series on sale with no case left (sold out) opens its next one now, if the warehouse can fill it
    let reopenedCaseId: number | null = null
    if (series.status === 'on_sale' && await openCaseCount(trx, req.seriesId) === 0) reopenedCaseId = await createCase(trx, clock, req.seriesId)
    // back on sale: "notify me when restocked" (domain/events/restock.ts) tells everyone waiting now, in
    // the same transaction (a request is made with the series row locked, as here)
    if (reopenedCaseId !== null) {
      const now = iso(clock())
      await trx.updateTable('restock_reminders').set({ remind_at: now, updated_at: now })
        .where('series_id', '=', req.seriesId).where('status', '=', 'waiting').where('drop_id', 'is', null).execute()
    }
    await writeAudit(trx, clock, {
      actorId,
      action: 'series.stock',
      entity: 'series',
      entityId: req.seriesId,
      detail: {
        before: { stock: Object.fromEntries(changes.map(c => [c.designId, c.before])) },
        after: { stock: Object.fromEntries(changes.map(c => [c.designId, c.after])) },
        ...(reopenedCaseId !== null ? { reopenedCaseId } : {})
      }
    })
  })
  return seriesStock(db, req.seriesId)
}
