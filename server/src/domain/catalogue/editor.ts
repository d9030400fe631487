/**
 * The series editor (issue 10; types/editor.ts): drafts change freely; a published series keeps what
 * shoppers bought at (composition, values, price, hidden chance) and may only have its texts, names and
 * images corrected; publishing checks every rule at once; retiring reveals the open cases. Every change
 * locks the series row, checks the version the editor started from, bumps it (the series cache keys on
 * it) and writes an audit entry with the state before and after.
 */
import { sql } from 'kysely'
import type {
  CasesOpenAheadResult, EditorDesign, EditorDesignInput, EditorSeries, EditorSeriesListRequest, EditorSeriesListResponse, EditorSeriesSaveRequest,
  EditorSeriesStatus, LowValueData, LowValueDesign, PublishProblem
} from '../../../../types/editor'
import { EDITOR_LIMITS } from '../../../../types/limits'
import { CompositionError, seriesOdds, validateComposition, validateKuji, type CompositionProblem } from '../../../../types/odds'
import { KUJI_TICKETS_MAX, KUJI_TURN } from '../../../../types/kuji'
import type { SeriesKind } from '../../db/schema'
import type { Db } from '../../db'
import type { Dialect } from '../../db/dialect'
import type { DesignRowDb, SeriesRowDb } from '../../db/schema'
import { forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { ART_NAME } from './art'
import type { MessageKey, MessageParams } from '../../i18n/messages'
import { writeAudit } from '../ops/audit'
import { CASE_SPREAD, createCase, openCaseCount, retireOnSaleCases } from './cases'
import { sellsByDrop } from './drops'
import { figuresNeeded } from './stock'
import { indexSeries } from './seriesIndex'
import { setSeriesTags, tagsOf, type TagName } from './seriesSearch'

/** Translates a message in the caller's language (the route passes the request's). */
export type Translate = (key: MessageKey, params?: MessageParams) => string

const UPLOADED = /^\/media\/u\/([0-9a-f]{64})\.(png|jpg|webp|gif)$/
const ART = /^\/media\/art\/(.+)$/

function designView (d: DesignRowDb): EditorDesign {
  return {
    id: Number(d.id),
    name: { zh: d.name, en: d.name_en },
    alt: { zh: d.alt ?? '', en: d.alt_en ?? '' },
    rarity: d.rarity,
    image: d.image,
    referenceValueCents: Number(d.reference_value_cents),
    recycleValueCents: Number(d.recycle_value_cents),
    stock: Number(d.stock),
    committed: Number(d.committed),
    tier: d.tier,
    tickets: Number(d.tickets)
  }
}

function seriesView (row: SeriesRowDb, designs: DesignRowDb[], tags: TagName[]): EditorSeries {
  return {
    id: Number(row.id),
    status: row.status,
    title: { zh: row.name, en: row.name_en },
    description: { zh: row.description, en: row.description_en },
    rules: { zh: row.rules, en: row.rules_en },
    cover: row.cover,
    priceCents: Number(row.price_cents),
    hiddenCasePpm: row.hidden_ppm,
    caseSize: row.kind === 'kuji' ? kujiTickets(designs) : designs.filter(d => d.rarity !== 'hidden').length,
    kind: row.kind,
    turnSeconds: Number(row.turn_s),
    doubleChanceWinners: Number(row.dc_winners),
    designs: designs.map(designView),
    tags,
    version: Number(row.version),
    updatedAt: new Date(row.updated_at).toISOString()
  }
}

/** The tickets of a kuji set: every tier design's count (the Last One and the Double Chance are won, not drawn). */
const kujiTickets = (designs: ReadonlyArray<{ tier: string | null; tickets: number | string }>): number =>
  designs.reduce((a, d) => a + (d.tier && KUJI_TICKET_TIER.test(d.tier) ? Number(d.tickets) : 0), 0)
const KUJI_TICKET_TIER = /^[A-Z]$/

async function designsOf (db: Db, seriesId: number): Promise<DesignRowDb[]> {
  return db.selectFrom('designs').selectAll().where('series_id', '=', seriesId).orderBy('sort').orderBy('id').execute()
}

export async function editorSeries (db: Db, seriesId: number): Promise<EditorSeries> {
  const row = await db.selectFrom('series').selectAll().where('id', '=', seriesId).executeTakeFirst()
  if (!row) throw fail.notFound('editor.notFound')
  return seriesView(row, await designsOf(db, seriesId), await tagsOf(db, seriesId))
}

export async function listEditorSeries (db: Db, req: EditorSeriesListRequest): Promise<EditorSeriesListResponse> {
  const countRows = await db.selectFrom('series').select(['status', eb => eb.fn.countAll<number>().as('n')]).groupBy('status').execute()
  const counts = { draft: 0, on_sale: 0, retired: 0 }
  for (const r of countRows) counts[r.status] = Number(r.n)
  let q = db.selectFrom('series').selectAll()
  if (req.status) q = q.where('status', '=', req.status)
  const rows = await q.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(req.size).offset((req.page - 1) * req.size).execute()
  const ids = rows.map(r => Number(r.id))
  const designCounts = new Map<number, number>()
  const firstImage = new Map<number, string>()
  const open = new Map<number, number>()
  const sold = new Map<number, number>()
  if (ids.length) {
    const designs = await db.selectFrom('designs').select(['series_id', 'image']).where('series_id', 'in', ids).orderBy('sort').orderBy('id').execute()
    for (const d of designs) {
      const s = Number(d.series_id)
      designCounts.set(s, (designCounts.get(s) ?? 0) + 1)
      if (d.image && !firstImage.has(s)) firstImage.set(s, d.image)
    }
    const cases = await db.selectFrom('cases').select(['series_id', 'status', eb => eb.fn.countAll<number>().as('n'), eb => eb.fn.sum<number>('sold_count').as('sold')])
      .where('series_id', 'in', ids).groupBy(['series_id', 'status']).execute()
    for (const c of cases) {
      const s = Number(c.series_id)
      if (c.status === 'on_sale') open.set(s, Number(c.n))
      sold.set(s, (sold.get(s) ?? 0) + Number(c.sold ?? 0))
    }
  }
  return {
    list: rows.map(r => ({
      id: Number(r.id),
      title: { zh: r.name, en: r.name_en },
      status: r.status,
      priceCents: Number(r.price_cents),
      designCount: designCounts.get(Number(r.id)) ?? 0,
      cover: r.cover ?? firstImage.get(Number(r.id)) ?? null,
      casesOnSale: open.get(Number(r.id)) ?? 0,
      boxesSold: sold.get(Number(r.id)) ?? 0,
      updatedAt: new Date(r.updated_at).toISOString()
    })),
    total: req.status ? counts[req.status] : counts.draft + counts.on_sale + counts.retired,
    counts
  }
}

// ---- saving -------------------------------------------------------------------------------------------

/** The state an audit entry records: everything a shopper sees and pays by. */
function auditState (s: EditorSeries) {
  return {
    status: s.status,
    title: s.title,
    description: s.description,
    rules: s.rules,
    cover: s.cover,
    priceCents: s.priceCents,
    hiddenCasePpm: s.hiddenCasePpm,
    caseSize: s.caseSize,
    ...(s.kind === 'kuji' ? { kind: s.kind, turnSeconds: s.turnSeconds, doubleChanceWinners: s.doubleChanceWinners } : {}),
    designs: s.designs.map(d => ({
      id: d.id, name: d.name, rarity: d.rarity, image: d.image, referenceValueCents: d.referenceValueCents, recycleValueCents: d.recycleValueCents,
      ...(s.kind === 'kuji' ? { tier: d.tier, tickets: d.tickets } : {})
    })),
    tags: s.tags
  }
}

/** Every image must be one the server holds: an upload (by its hash) or a demo art file. */
async function checkImages (db: Db, req: EditorSeriesSaveRequest): Promise<void> {
  const wanted: Array<{ field: string; url: string }> = []
  if (req.cover) wanted.push({ field: 'cover', url: req.cover })
  req.designs.forEach((d, i) => { if (d.image) wanted.push({ field: `designs.${i}.image`, url: d.image }) })
  const hashes = wanted.map(w => UPLOADED.exec(w.url)?.[1]).filter((h): h is string => !!h)
  const held = new Set(hashes.length
    ? (await db.selectFrom('media').select(['sha256', 'ext']).where('sha256', 'in', [...new Set(hashes)]).execute()).map(m => `/media/u/${m.sha256}.${m.ext}`)
    : [])
  for (const w of wanted) {
    const art = ART.exec(w.url)
    const known = art ? ART_NAME.test(art[1]) : held.has(w.url)
    if (!known) throw fail.field(w.field, 'editor.imageUnknown')
  }
}

const COMPOSITION_KEYS: Record<CompositionProblem, MessageKey> = {
  hiddenRange: 'editor.composition.hiddenRange',
  oneHidden: 'editor.composition.oneHidden',
  needRegular: 'editor.composition.needRegular',
  hiddenNeedsDesign: 'editor.composition.hiddenNeedsDesign',
  designNeedsHidden: 'editor.composition.designNeedsHidden',
  tooMany: 'editor.composition.tooMany',
  kujiTier: 'editor.composition.kujiTier',
  kujiLastOne: 'editor.composition.kujiLastOne',
  kujiTickets: 'editor.composition.kujiTickets',
  kujiHidden: 'editor.composition.kujiHidden',
  kujiDoubleChance: 'editor.composition.kujiDoubleChance'
}

type ComposedDesign = Pick<EditorDesignInput, 'rarity' | 'referenceValueCents'> & { tier?: string | null; tickets?: number }
const kujiComposition = (designs: readonly ComposedDesign[]) =>
  designs.map((d, i) => ({ id: i + 1, rarity: d.rarity, referenceValueCents: d.referenceValueCents, tier: d.tier ?? null, tickets: d.tickets ?? 0 }))

function compositionProblem (designs: readonly ComposedDesign[], hiddenCasePpm: number, kind: SeriesKind, doubleChanceWinners: number): CompositionProblem | null {
  try {
    if (kind === 'kuji') validateKuji(kujiComposition(designs), hiddenCasePpm, doubleChanceWinners)
    else validateComposition(designs.map((d, i) => ({ id: i + 1, rarity: d.rarity, referenceValueCents: d.referenceValueCents })), hiddenCasePpm)
    return null
  } catch (err) {
    if (err instanceof CompositionError) return err.problem
    throw err
  }
}

/** The field of a published series a save may not change (null: none changed). */
function lockedChange (current: EditorSeries, req: EditorSeriesSaveRequest): string | null {
  if (req.priceCents !== current.priceCents) return 'priceCents'
  if (req.hiddenCasePpm !== current.hiddenCasePpm) return 'hiddenCasePpm'
  if ((req.kind ?? current.kind) !== current.kind) return 'kind'
  if ((req.doubleChanceWinners ?? current.doubleChanceWinners) !== current.doubleChanceWinners) return 'doubleChanceWinners'
  const byId = new Map(current.designs.map(d => [d.id, d]))
  if (req.designs.length !== current.designs.length) return 'designs'
  for (const [i, d] of req.designs.entries()) {
    const was = d.id === undefined ? undefined : byId.get(d.id)
    if (!was) return `designs.${i}.id`
    if (d.rarity !== was.rarity) return `designs.${i}.rarity`
    if (d.referenceValueCents !== was.referenceValueCents) return `designs.${i}.referenceValueCents`
    if (d.recycleValueCents !== was.recycleValueCents) return `designs.${i}.recycleValueCents`
    if (current.kind === 'kuji' && (d.tier ?? null) !== was.tier) return `designs.${i}.tier`
    if (current.kind === 'kuji' && (d.tickets ?? 0) !== was.tickets) return `designs.${i}.tickets`
    byId.delete(d.id!)
  }
  return null
}

/** A design a recipe's pool names cannot go (the recipe would draw a design that is not there). */
async function checkRemovable (db: Db, seriesId: number, removed: EditorDesign[]): Promise<void> {
  if (!removed.length) return
  const recipes = await db.selectFrom('combine_recipes').select(['name', 'pool']).where('series_id', '=', seriesId).execute()
  for (const d of removed) {
    for (const r of recipes) {
      const pool = JSON.parse(r.pool) as Array<{ designId: number }>
      if (pool.some(p => Number(p.designId) === d.id)) throw fail.unprocessable('editor.designInRecipe', { name: d.name.zh || d.name.en, recipe: r.name })
    }
  }
}

/** Creates a draft (no id) or changes a series; answers the series as saved. */
export async function saveSeries (db: Db, dialect: Dialect, clock: Clock, actorId: number, req: EditorSeriesSaveRequest): Promise<EditorSeries> {
  if (req.id !== undefined && req.version === undefined) throw fail.field('version', 'editor.versionRequired')
  const designIds = req.designs.map(d => d.id).filter((id): id is number => id !== undefined)
  const dup = designIds.findIndex((id, i) => designIds.indexOf(id) !== i)
  if (dup >= 0) throw fail.field(`designs.${req.designs.findIndex(d => d.id === designIds[dup])}.id`, 'editor.designTwice')
  // a draft may be half done, but never a case the database could not hold
  const regularAndRare = req.designs.filter(d => d.rarity !== 'hidden').length
  if (regularAndRare > 100) throw fail.field('designs', 'editor.composition.tooMany')
  // a kuji set: its tickets and the Last One in one case (types/kuji.ts); a case series keeps no tiers
  const tickets = kujiTickets(req.designs.map(d => ({ tier: d.tier ?? null, tickets: d.tickets ?? 0 })))
  if (tickets > KUJI_TICKETS_MAX) throw fail.field('designs', 'editor.composition.kujiTickets')
  req.designs.forEach((d, i) => {
    if (d.recycleValueCents > d.referenceValueCents) throw fail.field(`designs.${i}.recycleValueCents`, 'editor.recycleAboveReference')
  })
  await checkImages(db, req)

  const kujiFields = (kind: SeriesKind, d: EditorDesignInput) => kind === 'kuji'
    ? { tier: d.tier ?? null, tickets: d.tier && KUJI_TICKET_TIER.test(d.tier) ? d.tickets ?? 0 : 0 }
    : { tier: null, tickets: 0 }
  const caseSizeOf = (kind: SeriesKind) => Math.max(1, kind === 'kuji' ? tickets : regularAndRare)

  return db.transaction().execute(async trx => {
    const now = iso(clock())
    if (req.id === undefined) {
      const kind = req.kind ?? 'case'
      const { id } = await trx.insertInto('series').values({
        name: req.title.zh, name_en: req.title.en,
        description: req.description.zh, description_en: req.description.en,
        rules: req.rules.zh, rules_en: req.rules.en,
        cover: req.cover, price_cents: req.priceCents, case_size: caseSizeOf(kind), hidden_ppm: req.hiddenCasePpm,
        kind, turn_s: req.turnSeconds ?? KUJI_TURN.defaultSeconds, dc_winners: kind === 'kuji' ? req.doubleChanceWinners ?? 0 : 0,
        status: 'draft', created_at: now, updated_at: now
      }).returning('id').executeTakeFirstOrThrow()
      const seriesId = Number(id)
      if (req.designs.length) {
        await trx.insertInto('designs').values(req.designs.map((d, i) => ({
          series_id: seriesId, name: d.name.zh, name_en: d.name.en, alt: d.alt?.zh.trim() ?? '', alt_en: d.alt?.en.trim() ?? '', rarity: d.rarity, image: d.image,
          reference_value_cents: d.referenceValueCents, recycle_value_cents: d.recycleValueCents, sort: i + 1, created_at: now, ...kujiFields(kind, d)
        }))).execute()
      }
      if (req.tags) await setSeriesTags(trx, clock, seriesId, req.tags)
      await indexSeries(trx, seriesId)
      const created = seriesView((await trx.selectFrom('series').selectAll().where('id', '=', seriesId).executeTakeFirstOrThrow()), await designsOf(trx, seriesId), await tagsOf(trx, seriesId))
      await writeAudit(trx, clock, { actorId, action: 'series.create', entity: 'series', entityId: seriesId, detail: { before: null, after: auditState(created) } })
      return created
    }

    const seriesId = req.id
    const row = await forUpdate(dialect, trx.selectFrom('series').selectAll().where('id', '=', seriesId)).executeTakeFirst()
    if (!row) throw fail.notFound('editor.notFound')
    if (Number(row.version) !== req.version) throw fail.conflict('editor.stale')
    const current = seriesView(row, await designsOf(trx, seriesId), await tagsOf(trx, seriesId))
    const known = new Set(current.designs.map(d => d.id))
    const foreign = req.designs.findIndex(d => d.id !== undefined && !known.has(d.id))
    if (foreign >= 0) throw fail.field(`designs.${foreign}.id`, 'editor.designUnknown')
    if (current.status !== 'draft') {
      const locked = lockedChange(current, req)
      if (locked) throw fail.unprocessable('editor.locked', { field: locked }, { field: locked })
    }
    const kind = current.status === 'draft' ? req.kind ?? current.kind : current.kind
    const removed = current.designs.filter(d => !designIds.includes(d.id))
    await checkRemovable(trx, seriesId, removed)
    if (removed.length) await trx.deleteFrom('designs').where('id', 'in', removed.map(d => d.id)).execute()
    for (const [i, d] of req.designs.entries()) {
      const values = {
        name: d.name.zh, name_en: d.name.en, rarity: d.rarity, image: d.image,
        // a save without alt keeps what the design had
        ...(d.alt ? { alt: d.alt.zh.trim(), alt_en: d.alt.en.trim() } : {}),
        reference_value_cents: d.referenceValueCents, recycle_value_cents: d.recycleValueCents, sort: i + 1, ...kujiFields(kind, d)
      }
      if (d.id === undefined) await trx.insertInto('designs').values({ ...values, series_id: seriesId, created_at: now }).execute()
      else await trx.updateTable('designs').set(values).where('id', '=', d.id).where('series_id', '=', seriesId).execute()
    }
    await trx.updateTable('series').set({
      name: req.title.zh, name_en: req.title.en,
      description: req.description.zh, description_en: req.description.en,
      rules: req.rules.zh, rules_en: req.rules.en,
      cover: req.cover, price_cents: req.priceCents, case_size: caseSizeOf(kind), hidden_ppm: req.hiddenCasePpm,
      kind, ...(req.turnSeconds !== undefined ? { turn_s: req.turnSeconds } : {}),
      ...(kind !== 'kuji' ? { dc_winners: 0 } : req.doubleChanceWinners !== undefined ? { dc_winners: req.doubleChanceWinners } : {}),
      version: sql<number>`version + 1`, updated_at: now
    }).where('id', '=', seriesId).execute()
    if (req.tags) await setSeriesTags(trx, clock, seriesId, req.tags)
    await indexSeries(trx, seriesId)
    const saved = seriesView((await trx.selectFrom('series').selectAll().where('id', '=', seriesId).executeTakeFirstOrThrow()), await designsOf(trx, seriesId), await tagsOf(trx, seriesId))
    await writeAudit(trx, clock, { actorId, action: 'series.update', entity: 'series', entityId: seriesId, detail: { before: auditState(current), after: auditState(saved) } })
    return saved
  })
}

// ---- publishing and retiring ------------------------------------------------------------------------

/** Every rule a draft breaks before it can go on sale (empty: it can). */
export function publishProblems (s: EditorSeries, tr: Translate): PublishProblem[] {
  const out: PublishProblem[] = []
  const add = (field: string, key: MessageKey, params: MessageParams = {}) => out.push({ field, message: tr(key, { field, ...params }) })
  for (const part of ['title', 'description'] as const) {
    for (const lang of ['zh', 'en'] as const) if (!s[part][lang].trim()) add(`${part}.${lang}`, 'editor.problem.textMissing')
  }
  if (s.designs.length < EDITOR_LIMITS.designsToPublish) add('designs', 'editor.problem.designsFew', { min: EDITOR_LIMITS.designsToPublish })
  s.designs.forEach((d, i) => {
    for (const lang of ['zh', 'en'] as const) if (!d.name[lang].trim()) add(`designs.${i}.name.${lang}`, 'editor.problem.designName', { n: i + 1 })
    if (!d.image) add(`designs.${i}.image`, 'editor.problem.imageMissing', { n: i + 1 })
  })
  // the first case (set) is made at once: the warehouse must hold every figure it may hold
  s.designs.forEach((d, i) => {
    const needed = figuresNeeded(d, s.kind, s.hiddenCasePpm, s.doubleChanceWinners)
    if (needed > 0 && d.stock - d.committed < needed) add(`designs.${i}.stock`, 'editor.problem.stockMissing', { n: i + 1 })
  })
  const problem = compositionProblem(s.designs, s.hiddenCasePpm, s.kind, s.doubleChanceWinners)
  if (problem) {
    add(problem === 'hiddenRange' || problem === 'designNeedsHidden' || problem === 'hiddenNeedsDesign' || problem === 'kujiHidden' ? 'hiddenCasePpm' : 'designs', COMPOSITION_KEYS[problem])
  } else if (s.kind === 'kuji') {
    // a ticket must not be worth more, on average, recycled than bought (the Last One comes with a set)
    const expected = s.designs.reduce((a, d) => a + figuresNeeded(d, 'kuji', 0, s.doubleChanceWinners) * d.recycleValueCents, 0) / Math.max(1, s.caseSize)
    if (expected >= s.priceCents) add('designs', 'editor.problem.recycleExpected', { expected: (expected / 100).toFixed(2), price: (s.priceCents / 100).toFixed(2) })
  } else if (s.designs.length) {
    // odds that add up: every box holds exactly one design, so the chances sum to exactly 1
    const odds = seriesOdds(s.designs.map(d => ({ id: d.id, rarity: d.rarity, referenceValueCents: d.referenceValueCents })), s.hiddenCasePpm)
    const fractions = [...odds.perDesign.values()]
    const den = fractions[0]?.den ?? 1
    const sum = fractions.reduce((a, f) => a + f.num, 0)
    if (sum !== den || fractions.some(f => f.den !== den)) add('designs', 'editor.problem.oddsSum')
    // a box must not be worth more, on average, recycled than bought: a shop that did would pay out
    // money for nothing to anyone who buys and recycles in a loop
    const expected = s.designs.reduce((a, d) => a + (odds.perDesign.get(d.id)!.num / den) * d.recycleValueCents, 0)
    if (expected >= s.priceCents) add('designs', 'editor.problem.recycleExpected', { expected: (expected / 100).toFixed(2), price: (s.priceCents / 100).toFixed(2) })
  }
  return out
}

async function lockedSeries (trx: Db, dialect: Dialect, seriesId: number): Promise<EditorSeries> {
  const row = await forUpdate(dialect, trx.selectFrom('series').selectAll().where('id', '=', seriesId)).executeTakeFirst()
  if (!row) throw fail.notFound('editor.notFound')
  return seriesView(row, await designsOf(trx, seriesId), await tagsOf(trx, seriesId))
}

async function setStatus (trx: Db, clock: Clock, seriesId: number, status: EditorSeriesStatus): Promise<void> {
  await trx.updateTable('series').set({ status, version: sql<number>`version + 1`, updated_at: iso(clock()) }).where('id', '=', seriesId).execute()
  await indexSeries(trx, seriesId)
}

/** The designs worth less than one box (LowValueData), in the editor's order. */
export function lowValueDesigns (s: Pick<EditorSeries, 'priceCents' | 'designs'>): LowValueDesign[] {
  return s.designs.filter(d => d.referenceValueCents < s.priceCents)
    .map(d => ({ designId: d.id, name: d.name, referenceValueCents: d.referenceValueCents }))
}

export async function publishSeries (db: Db, dialect: Dialect, clock: Clock, actorId: number, seriesId: number, tr: Translate, lowValueAcknowledged: number[] = []): Promise<EditorSeries> {
  return db.transaction().execute(async trx => {
    const before = await lockedSeries(trx, dialect, seriesId)
    if (before.status !== 'draft') throw fail.unprocessable('editor.notDraft')
    const problems = publishProblems(before, tr)
    if (problems.length) throw fail.unprocessable('editor.publishBlocked', { count: problems.length, first: problems[0].message }, { problems })
    // a design worth less than one box: published only once the operator has seen it named (the list
    // they acknowledged must hold every such design as the series is now: one changed since is asked again)
    const low = lowValueDesigns(before)
    const acknowledged = new Set(lowValueAcknowledged)
    if (low.some(d => !acknowledged.has(d.designId))) {
      throw new ApiFailure(409, 'editor.lowValue', {
        count: low.length,
        namesZh: low.map(d => d.name.zh).join('、'),
        namesEn: low.map(d => d.name.en).join(', '),
        price: (before.priceCents / 100).toFixed(2)
      }, { reason: 'low_value', priceCents: before.priceCents, designs: low } satisfies LowValueData)
    }
    await setStatus(trx, clock, seriesId, 'on_sale')
    // publishProblems asked for a free figure of every design a case may hold: the first case is made
    const caseId = await createCase(trx, clock, seriesId)
    const after = await editorSeries(trx, seriesId)
    await writeAudit(trx, clock, { actorId, action: 'series.publish', entity: 'series', entityId: seriesId, detail: { before: auditState(before), after: auditState(after), firstCaseId: caseId, ...(low.length ? { lowValueAcknowledged: low } : {}) } })
    return after
  })
}

export async function retireSeries (db: Db, dialect: Dialect, clock: Clock, actorId: number, seriesId: number): Promise<EditorSeries> {
  return db.transaction().execute(async trx => {
    const before = await lockedSeries(trx, dialect, seriesId)
    if (before.status !== 'on_sale') throw fail.unprocessable('editor.notOnSale')
    const open = await trx.selectFrom('cases').select('id').where('series_id', '=', seriesId).where('status', '=', 'on_sale').execute()
    await setStatus(trx, clock, seriesId, 'retired')
    await retireOnSaleCases(trx, clock, seriesId)
    const after = await editorSeries(trx, seriesId)
    await writeAudit(trx, clock, {
      actorId, action: 'series.retire', entity: 'series', entityId: seriesId,
      detail: { before: { status: before.status }, after: { status: after.status }, revealedCases: open.map(c => Number(c.id)) }
    })
    return after
  })
}

/** Cases made in one transaction when an operator opens cases ahead (each a shuffle, a commitment and its slots). */
const OPEN_AHEAD_BATCH = 100

/**
 * Opens `count` cases of a series on sale ahead of a launch, up to the series' cap of open cases
 * (CASE_SPREAD.maxOpenCases): shoppers who then arrive at once are given these (cases.ts, assignCase)
 * instead of each waiting while a case is made for them. In transactions of OPEN_AHEAD_BATCH cases, each
 * holding the series row (so a retire waits for it, and a batch after a retire is refused) and each
 * audited with how many it opened. Answers how many were opened, how many are open, and the cap.
 */
export async function openCasesAhead (db: Db, dialect: Dialect, clock: Clock, actorId: number | null, seriesId: number, count: number): Promise<CasesOpenAheadResult> {
  let opened = 0
  let open = 0
  let stockShort = false
  for (;;) {
    const batch = await db.transaction().execute(async trx => {
      const s = await lockedSeries(trx, dialect, seriesId)
      if (s.status !== 'on_sale') throw fail.unprocessable('editor.openAheadNotOnSale')
      // a series that sells by drops has every case of a drop made when the drop is
      if (await sellsByDrop(trx, seriesId)) throw fail.unprocessable('editor.openAheadDrops')
      // a kuji series sells one set at a time, shared by everyone in line
      if (s.kind === 'kuji') throw fail.unprocessable('editor.openAheadKuji')
      const before = await openCaseCount(trx, seriesId)
      const n = Math.max(0, Math.min(OPEN_AHEAD_BATCH, count - opened, CASE_SPREAD.maxOpenCases - before))
      const ids: number[] = []
      let short = false
      for (let i = 0; i < n; i++) {
        // each case takes a figure of every design it may hold: the warehouse may run out first
        const id = await createCase(trx, clock, seriesId)
        if (id === null) { short = true; break }
        ids.push(id)
      }
      if (ids.length > 0) {
        await writeAudit(trx, clock, {
          actorId, action: 'series.openCasesAhead', entity: 'series', entityId: seriesId,
          detail: { before: { openCases: before }, after: { openCases: before + ids.length }, requested: count, opened: ids, ...(short ? { stockShort: true } : {}) }
        })
      }
      return { n: ids.length, open: before + ids.length, short }
    })
    opened += batch.n
    open = batch.open
    stockShort = batch.short
    if (batch.n === 0 || batch.short || opened >= count) break
  }
  return { opened, open, max: CASE_SPREAD.maxOpenCases, stockShort }
}
