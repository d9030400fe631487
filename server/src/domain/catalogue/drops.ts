/**
 * Drops (issue 50; docs/decisions/drops.md): a limited run of a series, made and committed before the sale.
 *
 * Creating a drop, in one transaction with the series row locked:
 *  - the series' open cases made on demand are retired and revealed (their unsold figures are free
 *    again): from its first drop on, a series sells only from drops, and a restock is a new drop;
 *  - the warehouse must hold a free figure of every regular and rare design for each case, and of the
 *    hidden design for each hidden case, or nothing is made (422 naming cases or hiddenCases);
 *  - exactly `hiddenCases` of the cases are chosen at random to carry the hidden design (each in place
 *    of one regular design, as composeCase does), every case is shuffled and committed, and its figures
 *    are taken from the free stock;
 *  - the root over the cases' commitments (types/drop.ts) is stored and shown from then on.
 *
 * Before the start a drop's cases are 'scheduled', and every purchase path sells only from cases
 * 'on_sale', so nothing can be bought early by any route. They are opened by the first call that looks
 * at the series after the start (openDueDrops), in one UPDATE.
 */
import { sql } from 'kysely'
import type { DropCreateRequest, DropInfo, DropProof, SeriesDrops } from '../../../../types/drop'
import { dropRootOf } from '../../../../types/dropCheck'
import { RAFFLE_LIMITS } from '../../../../types/raffle'
import { sha256Hex } from '../../../../types/crypto'
import { DROP_LIMITS } from '../../../../types/limits'
import type { CaseRowDb } from '../../db/schema'
import type { Db } from '../../db'
import { prepared } from '../../db/prepared'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { writeAudit } from '../ops/audit'
import { commitOf, newSalt, secureRandomInt, shuffle, type RandomInt } from './arrangement'
import { lockSeriesForStock, retireOnSaleCases } from './stock'

const DAY_MS = 86_400_000
/** A start a little in the past is "now" (the operator's clock and the form's minute precision). */
const START_GRACE_MS = 5 * 60_000
/** Slot rows written per statement while a drop is made. */
const SLOT_BATCH = 500

/** Whether the series has ever had a drop: it then sells only from drops (no case is made on demand). */
export async function sellsByDrop (db: Db, seriesId: number): Promise<boolean> {
  const row = await db.selectFrom('drops').select('id').where('series_id', '=', seriesId).limit(1).executeTakeFirst()
  return row !== undefined
}

/** A drop of the series waiting for its start (built once: every look at a case asks it). */
const scheduledDropOf = prepared((db: Db, seriesId: number) => db.selectFrom('cases').innerJoin('drops', 'drops.id', 'cases.drop_id')
  .select(['drops.id', 'drops.starts_at'])
  .where('cases.series_id', '=', seriesId).where('cases.status', '=', 'scheduled')
  .limit(1))

/**
 * Opens the series' drop when its start has come, and answers the start of a drop still waiting for it
 * (null: nothing scheduled). One indexed read on every look at a series; a write only at the start.
 */
export async function openDueDrops (db: Db, clock: Clock, seriesId: number): Promise<string | null> {
  const waiting = await scheduledDropOf.first(db, seriesId)
  if (!waiting) return null
  const startsAt = new Date(waiting.starts_at).getTime()
  if (startsAt > clock()) return iso(startsAt)
  await db.updateTable('cases').set({ status: 'on_sale' })
    .where('drop_id', '=', Number(waiting.id)).where('status', '=', 'scheduled').execute()
  return null
}

/** The refusal of a series whose drop has not started: when it starts is in the data (the page counts down). */
export const notStarted = (startsAt: string): ApiFailure =>
  new ApiFailure(409, 'drop.notStarted', {}, { reason: 'not_started', startsAt })

interface DropRow {
  id: number; series_id: number; case_count: number; hidden_cases: number; case_size: number; starts_at: string; root: string
  queue_size: number | null; queue_window_s: number | null; queue_shop_s: number | null; queue_seed_hash: string | null
  limit_boxes: number | null; limit_cases: number | null; need_phone: number; min_account_hours: number | null
  raffle_closes_at: string | null; raffle_claim_s: number | null; raffle_seed_hash: string | null
}

/** A raffle's places: the drop's boxes over its boxes per account (types/raffle.ts). */
export const rafflePlaces = (d: { case_count: number; case_size: number; limit_boxes: number | null }): number =>
  Math.floor(Number(d.case_count) * Number(d.case_size) / Math.max(1, Number(d.limit_boxes ?? 1)))

async function infoOf (db: Db, clock: Clock, d: DropRow): Promise<DropInfo> {
  const counts = await db.selectFrom('cases')
    .select([
      'status',
      eb => eb.fn.countAll<number>().as('n'),
      eb => eb.fn.sum<number>(sql`size - sold_count`).as('left')
    ])
    .where('drop_id', '=', Number(d.id)).groupBy('status').execute()
  let casesLeft = 0
  let boxesLeft = 0
  let soldOut = 0
  for (const c of counts) {
    if (c.status === 'scheduled' || c.status === 'on_sale') { casesLeft += Number(c.n); boxesLeft += Number(c.left ?? 0) }
    if (c.status === 'sold_out') soldOut += Number(c.n)
  }
  const startsAt = new Date(d.starts_at).getTime()
  const status = casesLeft > 0 ? (startsAt > clock() ? 'scheduled' : 'on_sale') : soldOut === Number(d.case_count) ? 'sold_out' : 'ended'
  return {
    dropId: Number(d.id),
    seriesId: Number(d.series_id),
    status,
    startsAt: iso(startsAt),
    cases: Number(d.case_count),
    hiddenCases: Number(d.hidden_cases),
    boxes: Number(d.case_count) * Number(d.case_size),
    casesLeft,
    boxesLeft,
    root: d.root,
    waitingRoom: d.queue_size === null
      ? null
      : { windowSeconds: Number(d.queue_window_s), shoppersAtOnce: Number(d.queue_size), minutesEach: Math.round(Number(d.queue_shop_s) / 60), seedHash: d.queue_seed_hash ?? '' },
    raffle: d.raffle_closes_at === null
      ? null
      : { closesAt: iso(Date.parse(d.raffle_closes_at)), claimMinutes: Math.round(Number(d.raffle_claim_s) / 60), places: rafflePlaces(d), seedHash: d.raffle_seed_hash ?? '' },
    limits: {
      boxesPerAccount: d.limit_boxes === null ? null : Number(d.limit_boxes),
      casesPerAccount: d.limit_cases === null ? null : Number(d.limit_cases),
      verifiedPhone: Number(d.need_phone) === 1,
      accountHoursMin: d.min_account_hours === null ? null : Number(d.min_account_hours)
    }
  }
}

const dropColumns = ['id', 'series_id', 'case_count', 'hidden_cases', 'case_size', 'starts_at', 'root', 'queue_size', 'queue_window_s', 'queue_shop_s', 'queue_seed_hash', 'limit_boxes', 'limit_cases', 'need_phone', 'min_account_hours', 'raffle_closes_at', 'raffle_claim_s', 'raffle_seed_hash'] as const

/** The series' latest drop as shoppers see it (null: it has none). */
export async function latestDropInfo (db: Db, clock: Clock, seriesId: number): Promise<DropInfo | null> {
  const d = await db.selectFrom('drops').select(dropColumns).where('series_id', '=', seriesId).orderBy('id', 'desc').limit(1).executeTakeFirst()
  return d ? infoOf(db, clock, d) : null
}

/** POST /api/dropProof: the root, every case's commitment, and arrangements once revealed. */
export async function dropProof (db: Db, clock: Clock, dropId: number, proofOf: (c: CaseRowDb) => DropProof['caseProofs'][number]): Promise<DropProof> {
  const d = await db.selectFrom('drops').innerJoin('series', 'series.id', 'drops.series_id')
    .select(['drops.id', 'drops.series_id', 'drops.case_count', 'drops.hidden_cases', 'drops.case_size', 'drops.starts_at', 'drops.root', 'drops.queue_size', 'drops.queue_window_s', 'drops.queue_shop_s', 'drops.queue_seed_hash', 'drops.limit_boxes', 'drops.limit_cases', 'drops.need_phone', 'drops.min_account_hours', 'drops.raffle_closes_at', 'drops.raffle_claim_s', 'drops.raffle_seed_hash'])
    .where('drops.id', '=', dropId).where('series.status', 'in', ['on_sale', 'retired'])
    .executeTakeFirst()
  if (!d) throw fail.notFound('drop.notFound')
  await openDueDrops(db, clock, Number(d.series_id))
  const hidden = await db.selectFrom('designs').select('id').where('series_id', '=', Number(d.series_id)).where('rarity', '=', 'hidden').executeTakeFirst()
  const cases = await db.selectFrom('cases').selectAll().where('drop_id', '=', dropId).orderBy('id').execute()
  return {
    ...await infoOf(db, clock, d),
    hiddenDesignId: hidden ? Number(hidden.id) : null,
    caseProofs: cases.map(proofOf)
  }
}

interface StockDesign { id: number; rarity: string; stock: number; committed: number; name: string; name_en: string }

async function designsFor (db: Db, seriesId: number): Promise<StockDesign[]> {
  const rows = await db.selectFrom('designs').select(['id', 'rarity', 'stock', 'committed', 'name', 'name_en'])
    .where('series_id', '=', seriesId).orderBy('sort').orderBy('id').execute()
  return rows.map(r => ({ ...r, id: Number(r.id), stock: Number(r.stock), committed: Number(r.committed) }))
}

/** POST /api/operator/drops: the series' drops, newest first, and how large a new one the warehouse can fill. */
export async function seriesDrops (db: Db, clock: Clock, seriesId: number): Promise<SeriesDrops> {
  const series = await db.selectFrom('series').select('id').where('id', '=', seriesId).executeTakeFirst()
  if (!series) throw fail.notFound('editor.notFound')
  await openDueDrops(db, clock, seriesId)
  const rows = await db.selectFrom('drops').select(dropColumns).where('series_id', '=', seriesId).orderBy('id', 'desc').execute()
  const designs = await designsFor(db, seriesId)
  // a new drop first retires the cases made on demand: their unsold figures count as free for it
  const onDemand = await db.selectFrom('case_slots').innerJoin('cases', 'cases.id', 'case_slots.case_id')
    .select(['case_slots.design_id', eb => eb.fn.countAll<number>().as('n')])
    .where('cases.series_id', '=', seriesId).where('cases.status', '=', 'on_sale').where('cases.drop_id', 'is', null)
    .where('case_slots.sold_to', 'is', null)
    .groupBy('case_slots.design_id').execute()
  const unsold = new Map(onDemand.map(r => [Number(r.design_id), Number(r.n)]))
  const freeFor = (d: StockDesign) => Math.max(0, d.stock - d.committed + (unsold.get(d.id) ?? 0))
  const regular = designs.filter(d => d.rarity !== 'hidden')
  const hidden = designs.find(d => d.rarity === 'hidden')
  return {
    seriesId,
    drops: await Promise.all(rows.map(r => infoOf(db, clock, r))),
    casesFillable: regular.length ? Math.min(...regular.map(freeFor)) : 0,
    hiddenFree: hidden ? freeFor(hidden) : 0,
    hasHidden: hidden !== undefined
  }
}

/** The designs of each case of a drop: exactly `hidden` of them carry the hidden design, at random. */
export function composeDrop (designs: ReadonlyArray<{ id: number; rarity: string }>, cases: number, hidden: number, random: RandomInt = secureRandomInt): number[][] {
  const base = designs.filter(d => d.rarity !== 'hidden')
  const regularIndexes = base.map((d, i) => d.rarity === 'regular' ? i : -1).filter(i => i >= 0)
  const hiddenId = designs.find(d => d.rarity === 'hidden')?.id
  const carries = shuffle(Array.from({ length: cases }, (_, i) => i < hidden), random)
  return carries.map(withHidden => {
    const ids = base.map(d => d.id)
    if (withHidden && hiddenId !== undefined) ids[regularIndexes[random(regularIndexes.length)]] = hiddenId
    return shuffle(ids, random)
  })
}

/** POST /api/operator/dropCreate (see the header). */
export async function createDrop (db: Db, clock: Clock, actorId: number, req: DropCreateRequest, random: RandomInt = secureRandomInt): Promise<DropInfo> {
  const now = clock()
  const startsAt = Date.parse(req.startsAt)
  if (!Number.isFinite(startsAt)) throw fail.field('startsAt', 'drop.startsAtInvalid')
  if (startsAt < now - START_GRACE_MS) throw fail.field('startsAt', 'drop.startsInPast')
  if (startsAt > now + DROP_LIMITS.startsAheadMaxDays * DAY_MS) throw fail.field('startsAt', 'drop.startsTooLate', { days: DROP_LIMITS.startsAheadMaxDays })
  if (req.hiddenCases > req.cases) throw fail.field('hiddenCases', 'drop.hiddenOverCases')
  const start = Math.max(startsAt, now)
  // a raffle: entries from the start until it closes, then the winners buy; places need a cap per account
  const raffle = req.raffle
  const closesAt = raffle ? Date.parse(raffle.closesAt) : NaN
  if (raffle) {
    if (req.waitingRoom) throw fail.field('raffle', 'raffle.withRoom')
    if (!Number.isFinite(closesAt) || closesAt <= start) throw fail.field('raffle.closesAt', 'raffle.closesBeforeStart')
    if (closesAt > start + RAFFLE_LIMITS.registerDaysMax * DAY_MS) throw fail.field('raffle.closesAt', 'raffle.closesTooLate', { days: RAFFLE_LIMITS.registerDaysMax })
    if (!req.limits?.boxesPerAccount) throw fail.field('limits.boxesPerAccount', 'raffle.needsBoxCap')
  }
  const dropId = await db.transaction().execute(async trx => {
    await lockSeriesForStock(trx, req.seriesId)
    const series = await trx.selectFrom('series').select(['status', 'case_size', 'kind']).where('id', '=', req.seriesId).executeTakeFirst()
    if (!series) throw fail.notFound('editor.notFound')
    if (series.status !== 'on_sale') throw new ApiFailure(422, 'drop.seriesNotOnSale', {}, { field: 'seriesId' })
    // a kuji series sells its sets one after another, drawn in turns (kuji.ts): a drop of sets, with
    // its own line, is not made yet; the operator is told so rather than given a drop of cases
    if (series.kind === 'kuji') throw new ApiFailure(422, 'drop.kujiSeries', {}, { field: 'seriesId' })
    const live = await trx.selectFrom('cases').select('drop_id').where('series_id', '=', req.seriesId)
      .where('drop_id', 'is not', null).where('status', 'in', ['scheduled', 'on_sale']).limit(1).executeTakeFirst()
    if (live) throw new ApiFailure(409, 'drop.stillSelling', {}, { field: 'seriesId', dropId: Number(live.drop_id) })
    // the series' cases made on demand end here (revealed; their unsold figures are free again)
    await retireOnSaleCases(trx, clock, req.seriesId)

    const designs = await designsFor(trx, req.seriesId)
    const hiddenDesign = designs.find(d => d.rarity === 'hidden')
    if (req.hiddenCases > 0 && !hiddenDesign) throw new ApiFailure(422, 'drop.noHiddenDesign', {}, { field: 'hiddenCases' })
    if (req.hiddenCases > 0 && !designs.some(d => d.rarity === 'regular')) throw new ApiFailure(422, 'drop.noHiddenDesign', {}, { field: 'hiddenCases' })
    for (const d of designs) {
      const need = d.rarity === 'hidden' ? req.hiddenCases : req.cases
      const free = d.stock - d.committed
      if (free < need) {
        throw new ApiFailure(422, d.rarity === 'hidden' ? 'drop.hiddenShort' : 'drop.stockShort', { name: d.name, nameEn: d.name_en, free, need },
          { field: d.rarity === 'hidden' ? 'hiddenCases' : 'cases', designId: d.id, free, need })
      }
    }
    const arrangements = composeDrop(designs, req.cases, req.hiddenCases, random)
    // the figures: every count checked above under the series lock; the CHECK holds it regardless
    const take = new Map<number, number>()
    for (const ids of arrangements) for (const id of ids) take.set(id, (take.get(id) ?? 0) + 1)
    for (const [id, n] of [...take].sort((a, b) => a[0] - b[0])) {
      await trx.updateTable('designs').set({ committed: sql<number>`committed + ${n}` }).where('id', '=', id).execute()
    }
    const room = req.waitingRoom
    const seed = room ? newSalt() + newSalt() : null
    const raffleSeed = raffle ? newSalt() + newSalt() : null
    const { id } = await trx.insertInto('drops').values({
      series_id: req.seriesId,
      case_count: req.cases,
      hidden_cases: req.hiddenCases,
      case_size: arrangements[0].length,
      starts_at: iso(start),
      root: '',
      created_by: actorId,
      created_at: iso(now),
      queue_size: room ? room.shoppersAtOnce : null,
      queue_window_s: room ? room.windowSeconds : null,
      queue_shop_s: room ? room.minutesEach * 60 : null,
      queue_seed: seed,
      queue_seed_hash: seed ? sha256Hex(seed) : null,
      limit_boxes: req.limits?.boxesPerAccount ?? null,
      limit_cases: req.limits?.casesPerAccount ?? null,
      need_phone: req.limits?.verifiedPhone ? 1 : 0,
      min_account_hours: req.limits?.accountHoursMin ?? null,
      ...(raffle ? { raffle_closes_at: iso(closesAt), raffle_claim_s: raffle.claimMinutes * 60, raffle_seed: raffleSeed, raffle_seed_hash: sha256Hex(raffleSeed!) } : {})
    }).returning('id').executeTakeFirstOrThrow()
    const dropId = Number(id)
    const status = start > now ? 'scheduled' as const : 'on_sale' as const
    const commits: string[] = []
    let slots: Array<{ case_id: number; slot: number; design_id: number; sold_to: null; sold_at: null }> = []
    for (const ids of arrangements) {
      const salt = newSalt()
      const row = await trx.insertInto('cases').values({
        series_id: req.seriesId, size: ids.length, commit_hash: '', arrangement: JSON.stringify(ids), salt,
        status, sold_count: 0, created_at: iso(now), revealed_at: null, drop_id: dropId
      }).returning('id').executeTakeFirstOrThrow()
      const caseId = Number(row.id)
      const commit = commitOf(caseId, ids, salt)
      commits.push(commit)
      await trx.updateTable('cases').set({ commit_hash: commit }).where('id', '=', caseId).execute()
      slots.push(...ids.map((designId, i) => ({ case_id: caseId, slot: i + 1, design_id: designId, sold_to: null, sold_at: null })))
      if (slots.length >= SLOT_BATCH) { await trx.insertInto('case_slots').values(slots).execute(); slots = [] }
    }
    if (slots.length) await trx.insertInto('case_slots').values(slots).execute()
    const root = dropRootOf(dropId, commits)
    await trx.updateTable('drops').set({ root }).where('id', '=', dropId).execute()
    // "notify me when restocked" (domain/events/restock.ts): every waiting request of the series is due now, for this drop
    await trx.updateTable('restock_reminders').set({ drop_id: dropId, remind_at: iso(now), updated_at: iso(now) })
      .where('series_id', '=', req.seriesId).where('status', '=', 'waiting').execute()
    await writeAudit(trx, clock, {
      actorId,
      action: 'drop.create',
      entity: 'series',
      entityId: req.seriesId,
      detail: { before: null, after: { dropId, cases: req.cases, hiddenCases: req.hiddenCases, startsAt: iso(start), root, ...(room ? { waitingRoom: room } : {}), ...(raffle ? { raffle } : {}), ...(req.limits ? { limits: req.limits } : {}) } }
    })
    return dropId
  })
  const d = await db.selectFrom('drops').select(dropColumns).where('id', '=', dropId).executeTakeFirstOrThrow()
  return infoOf(db, clock, d)
}
