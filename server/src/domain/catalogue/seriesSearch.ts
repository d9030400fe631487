/**
 * Finding a series (issue 27 item 2): search in both languages, filters, sorts, suggestions and theme
 * tags, answered from the indexes of migration 0027.
 *
 * What keeps the index true: every write of a series or its designs (domain/catalogue.ts,
 * domain/editor.ts) calls indexSeries in its transaction; "popular" counts the boxes sold in the last
 * SERIES_SEARCH.popularDays days, counted again by the first search that needs it once the count is
 * older than SERIES_SEARCH.popularRefreshMs (per database and process), so a purchase never waits for it.
 */
import { sql, type Kysely } from 'kysely'
import { SERIES_SEARCH } from '../../../../types/limits'
import type { SeriesListRequest, SeriesSuggestion, SeriesSummary, ThemeTag } from '../../../../types/shop'
import type { Database } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import { iso, type Clock } from '../../core/clock'
import { DAY_MS } from '../../core/days'
import { fail } from '../../core/errors'
import { PUBLISHED, loadSeries, seriesSummary, text, type SeriesData } from './catalogue'
import { soldOutSeries } from './stock'
import { prefixEnd, searchKey, SUFFIX_MAX } from '../../db/searchText'
import { SHELF } from '../../db/seriesSearchRows'
import { forgetTags, tagsGeneration } from './seriesIndex'

type Db = Kysely<Database>

const LISTED_BELOW = SHELF.draft

// ---- popular ------------------------------------------------------------------------------------------

const refreshedAt = new WeakMap<object, { at: number; running: Promise<void> | null }>()
/** Series counted again per statement: on SQLite each statement holds the process (about 25 ms for 1,000 series over 500,000 purchases). */
const REFRESH_CHUNK = 1000

/** Counts again the boxes each series sold in the last days: every series, a chunk of ids per statement, yielding between them. */
export async function refreshPopularity (db: Db, dialect: Dialect, clock: Clock): Promise<void> {
  const since = iso(clock() - SERIES_SEARCH.popularDays * DAY_MS)
  const boxes = dialect === 'postgres' ? sql`json_array_length(p.slots::json)` : sql`json_array_length(p.slots)`
  const bounds = await db.selectFrom('series_search').select(eb => [eb.fn.min('series_id').as('low'), eb.fn.max('series_id').as('high')]).executeTakeFirst()
  if (!bounds || bounds.low === null) return
  for (let from = Number(bounds.low); from <= Number(bounds.high); from += REFRESH_CHUNK) {
    await sql`update series_search set sold_7d = coalesce((
        select sum(${boxes}) from purchases p where p.series_id = series_search.series_id and p.created_at >= ${since}
      ), 0) where series_id >= ${from} and series_id < ${from + REFRESH_CHUNK}`.execute(db)
    await new Promise(resolve => setImmediate(resolve))
  }
}

/**
 * The counts "popular" sorts by: the first search after the start waits for them; later, a search that
 * finds them older than popularRefreshMs starts a new count and is answered from the old one meanwhile.
 */
async function freshPopularity (db: Db, dialect: Dialect, clock: Clock): Promise<void> {
  const now = clock()
  let state = refreshedAt.get(db)
  if (!state) refreshedAt.set(db, state = { at: -Infinity, running: null })
  const never = state.at === -Infinity
  if (state.running) return never ? state.running : undefined
  if (now - state.at < SERIES_SEARCH.popularRefreshMs) return
  const s = state
  s.running = refreshPopularity(db, dialect, clock).then(() => { s.at = now }).finally(() => { s.running = null })
  if (never) return s.running
  // a failed count is tried again by the next search; nobody waits for it
  s.running.catch(() => undefined)
}

// ---- search -------------------------------------------------------------------------------------------

const FILTERS = ['q', 'priceMinCents', 'priceMaxCents', 'rarity', 'tagIds', 'hasHidden', 'sort'] as const

/** True when the request asks for more than the plain list (a search, a filter or a sort). */
export const isSearch = (req: SeriesListRequest): boolean => FILTERS.some(k => req[k] !== undefined)

/** The folded search text, or null when nothing is left of it (spaces only): a 400 naming `q`. */
function queryKey (q: string): string {
  const key = [...searchKey(q)].slice(0, SUFFIX_MAX).join('')
  if (!key) throw fail.field('q', 'search.emptyQuery')
  return key
}

export async function searchSeries (db: Db, dialect: Dialect, clock: Clock, req: SeriesListRequest): Promise<{ list: SeriesSummary[]; total: number }> {
  if (req.priceMinCents !== undefined && req.priceMaxCents !== undefined && req.priceMaxCents < req.priceMinCents) {
    throw fail.field('priceMaxCents', 'search.priceRange')
  }
  const key = req.q === undefined ? null : queryKey(req.q)
  const sort = req.sort ?? 'new'
  if (sort === 'popular') await freshPopularity(db, dialect, clock)

  let q = db.selectFrom('series_search as s').where('s.shelf', '<', LISTED_BELOW)
  if (key !== null) {
    q = q.where('s.series_id', 'in', db.selectFrom('series_search_terms').select('series_id')
      .where('suffix', '>=', key).where('suffix', '<', prefixEnd(key)))
  }
  if (req.priceMinCents !== undefined) q = q.where('s.price_cents', '>=', req.priceMinCents)
  if (req.priceMaxCents !== undefined) q = q.where('s.price_cents', '<=', req.priceMaxCents)
  if (req.rarity === 'rare') q = q.where('s.has_rare', '=', 1)
  if (req.rarity === 'hidden') q = q.where('s.has_hidden', '=', 1)
  // every published series has regular designs: rarity 'regular' narrows nothing
  if (req.hasHidden !== undefined) q = q.where('s.has_hidden', '=', req.hasHidden ? 1 : 0)
  if (req.tagIds) q = q.where('s.series_id', 'in', db.selectFrom('series_theme_tags').select('series_id').where('tag_id', 'in', req.tagIds))

  const { total } = await q.select(eb => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()
  let ordered = q.select('s.series_id').orderBy('s.shelf')
  if (sort === 'new') ordered = ordered.orderBy('s.series_id', 'desc')
  if (sort === 'popular') ordered = ordered.orderBy('s.sold_7d', 'desc').orderBy('s.series_id')
  if (sort === 'price_asc') ordered = ordered.orderBy('s.price_cents').orderBy('s.series_id')
  if (sort === 'price_desc') ordered = ordered.orderBy('s.price_cents', 'desc').orderBy('s.series_id', 'desc')
  const rows = await ordered.limit(req.size).offset((req.page - 1) * req.size).execute()
  const ids = rows.map(r => Number(r.series_id))
  const loaded = await loadSeries(db, ids)
  const soldOut = await soldOutSeries(db, ids)
  return {
    list: rows.map(r => loaded.get(Number(r.series_id))).filter((s): s is SeriesData => !!s).map(s => seriesSummary(s, soldOut)),
    total: Number(total)
  }
}

/**
 * Suggestions weigh at most this many matching titles (the first in the index's order): a letter or
 * two typed matches thousands of series, and ordering them all would cost every keystroke.
 */
const SUGGEST_CANDIDATES = 200

/** Titles containing a text, on sale and popular first (among the first SUGGEST_CANDIDATES matches). */
export async function suggestSeries (db: Db, q: string): Promise<SeriesSuggestion[]> {
  const key = queryKey(q)
  const rows = await db.selectFrom('series_search as s')
    .innerJoin('series', 'series.id', 's.series_id')
    .select(['series.id', 'series.name', 'series.name_en'])
    .where('s.shelf', '<', LISTED_BELOW)
    .where('s.series_id', 'in', db.selectFrom('series_search_terms').select('series_id')
      .where('suffix', '>=', key).where('suffix', '<', prefixEnd(key)).limit(SUGGEST_CANDIDATES))
    .orderBy('s.shelf').orderBy('s.sold_7d', 'desc').orderBy('s.series_id', 'desc')
    .limit(SERIES_SEARCH.suggestionsMax).execute()
  return rows.map(r => ({ id: Number(r.id), title: text(r.name, r.name_en) }))
}

// ---- theme tags ---------------------------------------------------------------------------------------

/**
 * The theme tags of published series, by name: held for TAGS_FRESH_MS per database and process (every
 * first page carries them), and dropped at once by a change made through this process.
 */
const TAGS_FRESH_MS = 10_000
const tagCache = new WeakMap<object, { at: number; generation: number; tags: ThemeTag[] }>()

export async function publishedTags (db: Db, now = Date.now()): Promise<ThemeTag[]> {
  const hit = tagCache.get(db)
  if (hit && hit.generation === tagsGeneration() && now - hit.at < TAGS_FRESH_MS) return hit.tags
  const generation = tagsGeneration()
  const tags = await loadPublishedTags(db)
  tagCache.set(db, { at: now, generation, tags })
  return tags
}

async function loadPublishedTags (db: Db): Promise<ThemeTag[]> {
  const rows = await db.selectFrom('theme_tags as t')
    .select(['t.id', 't.name_zh', 't.name_en'])
    .where(eb => eb.exists(eb.selectFrom('series_theme_tags as st').innerJoin('series', 'series.id', 'st.series_id')
      .select('st.series_id').whereRef('st.tag_id', '=', 't.id').where('series.status', 'in', PUBLISHED)))
    .orderBy('t.key').execute()
  return rows.map(r => ({ id: Number(r.id), name: text(r.name_zh, r.name_en) }))
}

export interface TagName { zh: string; en: string }

/** A series' tags, in their order. */
export async function tagsOf (db: Db, seriesId: number): Promise<TagName[]> {
  const rows = await db.selectFrom('series_theme_tags as st').innerJoin('theme_tags as t', 't.id', 'st.tag_id')
    .select(['t.name_zh', 't.name_en']).where('st.series_id', '=', seriesId).orderBy('st.sort').execute()
  return rows.map(r => ({ zh: r.name_zh, en: r.name_en }))
}

/**
 * Gives a series these tags (in this order). A tag is found by its folded name (zh, else en); a new
 * wording of a known tag renames it. Names are trimmed; a tag with no name is refused (400 naming it),
 * the same tag twice is kept once.
 */
export async function setSeriesTags (db: Db, clock: Clock, seriesId: number, tags: readonly TagName[]): Promise<void> {
  forgetTags()
  const seen = new Set<string>()
  const wanted: Array<TagName & { key: string }> = []
  tags.forEach((t, i) => {
    const zh = t.zh.trim()
    const en = t.en.trim()
    const key = searchKey(zh || en)
    if (!key) throw fail.field(`tags.${i}.zh`, 'search.tagEmpty')
    if (seen.has(key)) return
    seen.add(key)
    wanted.push({ zh: zh || en, en: en || zh, key })
  })
  await db.deleteFrom('series_theme_tags').where('series_id', '=', seriesId).execute()
  for (const [i, t] of wanted.entries()) {
    const now = iso(clock())
    await db.insertInto('theme_tags').values({ key: t.key, name_zh: t.zh, name_en: t.en, created_at: now })
      .onConflict(oc => oc.column('key').doUpdateSet({ name_zh: t.zh, name_en: t.en })).execute()
    const { id } = await db.selectFrom('theme_tags').select('id').where('key', '=', t.key).executeTakeFirstOrThrow()
    await db.insertInto('series_theme_tags').values({ tag_id: Number(id), series_id: seriesId, sort: i }).execute()
  }
}
