/**
 * The catalogue: series and their designs as the shop shows them (bilingual texts, exact odds, value
 * range), and the operator's changes (create a series, change price / odds / status, add a design),
 * each written to the audit log. Changing the odds or the composition retires the cases on sale and
 * opens a new one: the odds of a case never change while it is on sale.
 */
import { sql, type Kysely } from 'kysely'
import {
  MAX_BOX_PRICE_CENTS,
  type DesignInfo, type I18nText, type Rarity, type SeriesDetail, type SeriesSummary
} from '../../../../types/shop'
import type { DropInfo } from '../../../../types/drop'
import type { Database, DesignRowDb, SeriesRowDb, SeriesStatus } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { fail } from '../../core/errors'
import { writeAudit } from '../ops/audit'
import { createCase, retireOnSaleCases } from './cases'
import { soldOutSeries } from './stock'
import { CompositionError, kujiOdds, seriesOdds, validateComposition, validateKuji, type SeriesOdds } from './odds'
import { indexSeries } from './seriesIndex'

type Db = Kysely<Database>

export const PUBLISHED: readonly SeriesStatus[] = ['on_sale', 'retired']

export interface SeriesData {
  row: SeriesRowDb
  designs: DesignRowDb[]
  odds: SeriesOdds
}

export const text = (zh: string, en: string): I18nText => ({ zh, en: en || zh })

/** Series (with designs and odds) by id; only published ones unless `drafts`. */
export async function loadSeries (db: Db, ids: readonly number[], drafts = false): Promise<Map<number, SeriesData>> {
  const out = new Map<number, SeriesData>()
  if (!ids.length) return out
  let q = db.selectFrom('series').selectAll().where('id', 'in', [...new Set(ids)])
  if (!drafts) q = q.where('status', 'in', PUBLISHED)
  const rows = await q.execute()
  if (!rows.length) return out
  const designs = await db.selectFrom('designs').selectAll()
    .where('series_id', 'in', rows.map(r => Number(r.id)))
    .orderBy('sort').orderBy('id').execute()
  for (const row of rows) {
    const own = designs.filter(d => Number(d.series_id) === Number(row.id))
    out.set(Number(row.id), { row, designs: own, odds: oddsOf(row, own) })
  }
  return out
}

/**
 * Series data (designs, odds) by (id, version), per database: designs and odds change only with a new
 * version, which every change bumps in the same transaction, so a cached entry is never stale.
 */
export class SeriesCache {
  private readonly entries = new Map<number, { version: number; data: SeriesData }>()
  private static readonly MAX = 500

  /** The series (drafts too) at `version`, loaded through `db` (e.g. the running transaction) on a miss. */
  async get (db: Db, seriesId: number, version: number): Promise<SeriesData | undefined> {
    const hit = this.entries.get(seriesId)
    if (hit && hit.version === version) return hit.data
    const data = (await loadSeries(db, [seriesId], true)).get(seriesId)
    if (!data) return undefined
    if (data.row.version !== version) return data
    if (this.entries.size >= SeriesCache.MAX) this.entries.clear()
    this.entries.set(seriesId, { version, data })
    return data
  }
}

const caches = new WeakMap<object, SeriesCache>()

/** The cache of one database (keyed by its Kysely instance). */
export function seriesCacheOf (db: Db): SeriesCache {
  let c = caches.get(db)
  if (!c) {
    c = new SeriesCache()
    caches.set(db, c)
  }
  return c
}

export async function requireSeries (db: Db, seriesId: number): Promise<SeriesData> {
  const s = (await loadSeries(db, [seriesId])).get(seriesId)
  if (!s) throw fail.notFound('series.notFound')
  return s
}

function oddsOf (row: SeriesRowDb, designs: DesignRowDb[]): SeriesOdds {
  if (row.kind === 'kuji') return kujiOdds(designs.map(d => ({ id: Number(d.id), rarity: d.rarity, referenceValueCents: Number(d.reference_value_cents), tier: d.tier, tickets: Number(d.tickets) })))
  return seriesOdds(designs.map(d => ({ id: Number(d.id), rarity: d.rarity, referenceValueCents: Number(d.reference_value_cents) })), row.hidden_ppm)
}

export function designInfo (d: DesignRowDb, odds: SeriesOdds): DesignInfo {
  return {
    id: Number(d.id),
    name: text(d.name, d.name_en),
    image: d.image ?? '',
    ...(d.alt || d.alt_en ? { alt: text(d.alt, d.alt_en) } : {}),
    rarity: d.rarity,
    referenceValueCents: Number(d.reference_value_cents),
    recycleValueCents: Number(d.recycle_value_cents),
    oddsPpm: odds.perDesignPpm.get(Number(d.id)) ?? 0,
    ...(d.tier ? { tier: d.tier, tickets: Number(d.tickets) } : {})
  }
}

/** `soldOut`: the series ids soldOutSeries (stock.ts) found sold out. */
export function seriesSummary (s: SeriesData, soldOut: ReadonlySet<number>): SeriesSummary {
  const { row } = s
  return {
    id: Number(row.id),
    title: text(row.name, row.name_en),
    description: text(row.description, row.description_en),
    cover: row.cover ?? s.designs[0]?.image ?? '',
    priceCents: Number(row.price_cents),
    caseSize: row.case_size,
    designCount: s.designs.length,
    oddsPpm: { ...s.odds.perRarityPpm },
    status: row.status === 'on_sale' ? 'on_sale' : 'retired',
    kind: row.kind,
    soldOut: soldOut.has(Number(row.id))
  }
}

/** `drop`: the series' latest drop (drops.ts latestDropInfo), null when it sells without drops. */
export function seriesDetail (s: SeriesData, soldOut: ReadonlySet<number>, drop: DropInfo | null = null): SeriesDetail {
  return {
    ...seriesSummary(s, soldOut),
    designs: s.designs.map(d => designInfo(d, s.odds)),
    hiddenCasePpm: s.row.hidden_ppm,
    valueRange: { ...s.odds.valueRange },
    rules: text(s.row.rules, s.row.rules_en),
    drop
  }
}

/** Published series, on sale first, then by id. */
export async function listSeries (db: Db, page: number, size: number): Promise<{ list: SeriesSummary[]; total: number }> {
  const { total } = await db.selectFrom('series').where('status', 'in', PUBLISHED)
    .select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  const rows = await db.selectFrom('series').select(['id', 'status']).where('status', 'in', PUBLISHED)
    .orderBy(eb => eb.case().when('status', '=', 'on_sale').then(0).else(1).end())
    .orderBy('id')
    .limit(size).offset((page - 1) * size).execute()
  const ids = rows.map(r => Number(r.id))
  const loaded = await loadSeries(db, ids)
  const soldOut = await soldOutSeries(db, ids)
  return {
    list: rows.map(r => loaded.get(Number(r.id))).filter((s): s is SeriesData => !!s).map(s => seriesSummary(s, soldOut)),
    total: Number(total)
  }
}

// ---- operator changes -------------------------------------------------------------------------

export class CatalogueError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'CatalogueError'
  }
}

export interface DesignInput {
  name: I18nText
  image: string | null
  rarity: Rarity
  referenceValueCents: number
  recycleValueCents: number
  /** Figures on hand in the warehouse (stock.ts; default 0: nothing can be sold until counted). */
  stock?: number
  /** A kuji series' design: its tier ('A'..'Z', or 'last_one') and tickets in a set. */
  tier?: string
  tickets?: number
}

export interface SeriesInput {
  title: I18nText
  description: I18nText
  rules: I18nText
  cover: string | null
  priceCents: number
  hiddenCasePpm: number
  status: SeriesStatus
  designs: DesignInput[]
  /** 'kuji': a 一番赏 series (kuji.ts), its designs in tiers; absent: the case model. */
  kind?: 'case' | 'kuji'
  /** A kuji series' Double Chance winners per set (with one design of tier double_chance). */
  doubleChanceWinners?: number
}

/** A stored design as the composition rules read it. */
const designInputOf = (d: Pick<DesignRowDb, 'name' | 'name_en' | 'image' | 'rarity' | 'reference_value_cents' | 'recycle_value_cents' | 'tier' | 'tickets'>): DesignInput => ({
  name: text(d.name, d.name_en), image: d.image, rarity: d.rarity, referenceValueCents: Number(d.reference_value_cents), recycleValueCents: Number(d.recycle_value_cents),
  ...(d.tier ? { tier: d.tier, tickets: Number(d.tickets) } : {})
})

/** The server's own check of a box price (the database checks it too). */
export function checkPrice (priceCents: number): void {
  if (!Number.isSafeInteger(priceCents) || priceCents <= 0 || priceCents > MAX_BOX_PRICE_CENTS) {
    throw new CatalogueError(`price must be an integer from 1 to ${MAX_BOX_PRICE_CENTS} cents`)
  }
}

function checkCents (value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new CatalogueError(`${what} must be a non-negative integer of cents`)
}

function compositionSize (designs: readonly DesignInput[], hiddenCasePpm: number, kind: 'case' | 'kuji', doubleChanceWinners = 0): number {
  try {
    if (kind === 'kuji') return validateKuji(designs.map((d, i) => ({ id: i + 1, rarity: d.rarity, referenceValueCents: d.referenceValueCents, tier: d.tier ?? null, tickets: d.tickets ?? 0 })), hiddenCasePpm, doubleChanceWinners)
    return validateComposition(designs.map((d, i) => ({ id: i + 1, ...d })), hiddenCasePpm)
  } catch (err) {
    if (err instanceof CompositionError) throw new CatalogueError(err.message)
    throw err
  }
}

/** Creates a series with its designs (and its first case when on sale); answers its id. */
export async function createSeries (db: Db, clock: Clock, input: SeriesInput, actorId: number | null = null): Promise<number> {
  checkPrice(input.priceCents)
  for (const d of input.designs) {
    checkCents(d.referenceValueCents, 'reference value')
    checkCents(d.recycleValueCents, 'recycle value')
  }
  const kind = input.kind ?? 'case'
  const caseSize = compositionSize(input.designs, input.hiddenCasePpm, kind, input.doubleChanceWinners)
  return db.transaction().execute(async trx => {
    const now = iso(clock())
    const { id } = await trx.insertInto('series').values({
      name: input.title.zh,
      name_en: input.title.en,
      description: input.description.zh,
      description_en: input.description.en,
      rules: input.rules.zh,
      rules_en: input.rules.en,
      cover: input.cover,
      price_cents: input.priceCents,
      case_size: caseSize,
      hidden_ppm: input.hiddenCasePpm,
      kind,
      dc_winners: kind === 'kuji' ? input.doubleChanceWinners ?? 0 : 0,
      status: input.status,
      created_at: now,
      updated_at: now
    }).returning('id').executeTakeFirstOrThrow()
    const seriesId = Number(id)
    await trx.insertInto('designs').values(input.designs.map((d, i) => ({
      series_id: seriesId,
      name: d.name.zh,
      name_en: d.name.en,
      rarity: d.rarity,
      image: d.image,
      reference_value_cents: d.referenceValueCents,
      recycle_value_cents: d.recycleValueCents,
      sort: i + 1,
      created_at: now,
      stock: d.stock ?? 0,
      tier: kind === 'kuji' ? d.tier ?? null : null,
      tickets: kind === 'kuji' && d.tier && /^[A-Z]$/.test(d.tier) ? d.tickets ?? 0 : 0
    }))).execute()
    // ids in the order of `sort` (the order RETURNING gives rows is not defined)
    const designIds = await trx.selectFrom('designs').select('id').where('series_id', '=', seriesId).orderBy('sort').execute()
    // the same state the editor records for a series (domain/editor.ts auditState), so the audit tab
    // shows a seeded series like an edited one: each design by its id, both names, image and values
    await writeAudit(trx, clock, {
      actorId,
      action: 'series.create',
      entity: 'series',
      entityId: seriesId,
      detail: {
        before: null,
        after: {
          status: input.status, title: input.title, description: input.description, rules: input.rules, cover: input.cover,
          priceCents: input.priceCents, hiddenCasePpm: input.hiddenCasePpm, caseSize,
          designs: input.designs.map((d, i) => ({ id: Number(designIds[i].id), name: d.name, rarity: d.rarity, image: d.image, referenceValueCents: d.referenceValueCents, recycleValueCents: d.recycleValueCents }))
        }
      }
    })
    await indexSeries(trx, seriesId)
    if (input.status === 'on_sale') await createCase(trx, clock, seriesId)
    return seriesId
  })
}

export interface SeriesChanges { priceCents?: number; hiddenCasePpm?: number; status?: SeriesStatus }

/** Changes price, hidden chance or status; every change is audited with before and after. */
export async function updateSeries (db: Db, clock: Clock, seriesId: number, changes: SeriesChanges, actorId: number | null = null): Promise<void> {
  if (changes.priceCents !== undefined) checkPrice(changes.priceCents)
  await db.transaction().execute(async trx => {
    const row = await trx.selectFrom('series').selectAll().where('id', '=', seriesId).executeTakeFirst()
    if (!row) throw new CatalogueError(`no series ${seriesId}`)
    const designs = await trx.selectFrom('designs').select(['name', 'name_en', 'image', 'rarity', 'reference_value_cents', 'recycle_value_cents', 'tier', 'tickets']).where('series_id', '=', seriesId).execute()
    const hiddenCasePpm = changes.hiddenCasePpm ?? row.hidden_ppm
    if (changes.hiddenCasePpm !== undefined) compositionSize(designs.map(designInputOf), hiddenCasePpm, row.kind, row.dc_winners)
    const before = { priceCents: Number(row.price_cents), hiddenCasePpm: row.hidden_ppm, status: row.status }
    const after = {
      priceCents: changes.priceCents ?? before.priceCents,
      hiddenCasePpm,
      status: changes.status ?? before.status
    }
    await trx.updateTable('series').set({
      price_cents: after.priceCents,
      hidden_ppm: after.hiddenCasePpm,
      status: after.status,
      version: sql<number>`version + 1`,
      updated_at: iso(clock())
    }).where('id', '=', seriesId).execute()
    await writeAudit(trx, clock, { actorId, action: 'series.update', entity: 'series', entityId: seriesId, detail: { before, after } })
    await indexSeries(trx, seriesId)
    const oddsChanged = after.hiddenCasePpm !== before.hiddenCasePpm
    if (after.status !== 'on_sale' || oddsChanged) await retireOnSaleCases(trx, clock, seriesId)
    if (after.status === 'on_sale' && (oddsChanged || before.status !== 'on_sale')) await createCase(trx, clock, seriesId)
  })
}

/** Adds a design (a composition change): the cases on sale are retired and a new one opened. */
export async function addDesign (db: Db, clock: Clock, seriesId: number, design: DesignInput, actorId: number | null = null): Promise<number> {
  checkCents(design.referenceValueCents, 'reference value')
  checkCents(design.recycleValueCents, 'recycle value')
  return db.transaction().execute(async trx => {
    const row = await trx.selectFrom('series').selectAll().where('id', '=', seriesId).executeTakeFirst()
    if (!row) throw new CatalogueError(`no series ${seriesId}`)
    const existing = await trx.selectFrom('designs').select(['name', 'name_en', 'image', 'rarity', 'reference_value_cents', 'recycle_value_cents', 'tier', 'tickets', 'sort']).where('series_id', '=', seriesId).execute()
    if (row.kind === 'kuji') throw new CatalogueError('a kuji series changes its designs in the editor')
    const caseSize = compositionSize([...existing.map(designInputOf), design], row.hidden_ppm, row.kind)
    const now = iso(clock())
    const { id } = await trx.insertInto('designs').values({
      series_id: seriesId,
      name: design.name.zh,
      name_en: design.name.en,
      rarity: design.rarity,
      image: design.image,
      reference_value_cents: design.referenceValueCents,
      recycle_value_cents: design.recycleValueCents,
      sort: Math.max(0, ...existing.map(d => d.sort)) + 1,
      created_at: now,
      stock: design.stock ?? 0
    }).returning('id').executeTakeFirstOrThrow()
    await trx.updateTable('series').set({ case_size: caseSize, version: sql<number>`version + 1`, updated_at: now }).where('id', '=', seriesId).execute()
    await indexSeries(trx, seriesId)
    await writeAudit(trx, clock, {
      actorId,
      action: 'design.add',
      entity: 'series',
      entityId: seriesId,
      detail: {
        before: { caseSize: row.case_size, designCount: existing.length },
        after: { caseSize, designCount: existing.length + 1, design: { id: Number(id), name: design.name, rarity: design.rarity, referenceValueCents: design.referenceValueCents, recycleValueCents: design.recycleValueCents } }
      }
    })
    await retireOnSaleCases(trx, clock, seriesId)
    if (row.status === 'on_sale') await createCase(trx, clock, seriesId)
    return Number(id)
  })
}
