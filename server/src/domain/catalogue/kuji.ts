/**
 * 一番赏 (ichiban kuji) series (issue 51; types/kuji.ts, docs/decisions/kuji.md).
 *
 * A kuji set is a case (cases.ts createCase): one slot a ticket, every tier design as many times as its
 * tickets, shuffled, and the Last One in the slot after the last ticket; committed like any case. The
 * series keeps one set on sale, shared by everyone; its draws are purchases of its tickets (purchase.ts,
 * step by step on both databases), refused outside the buyer's turn. The buyer of the final ticket is
 * given the Last One in the same transaction (purchase.ts awardLastOne).
 *
 * The line (kuji_turns, migration 0046): one row per account and series, so every device of an account
 * holds the one place. Places come from a counter on the series row, in order of arrival. One shopper
 * draws at a time, for the series' turn_s; a turn that ran out, or was given up, lets the next in. The
 * line moves whenever anyone looks at it (the board, the turn call, a draw): a look that finds the turn
 * running, or nobody waiting, only reads; otherwise one transaction on the series row moves it, so two
 * processes never let in two shoppers at once.
 */
import { sql } from 'kysely'
import type { KujiBoard, KujiDraw, KujiSetProof, KujiTicket, KujiTierRow, KujiTurn } from '../../../../types/kuji'
import { KUJI_DOUBLE_CHANCE, KUJI_LAST_ONE, KUJI_RECENT_MAX } from '../../../../types/kuji'
import { doubleChanceListHash, doubleChanceTickets } from '../../../../types/kujiCheck'
import type { Db } from '../../db'
import { dialectOf, forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { designInfo, seriesCacheOf, text } from './catalogue'
import { oldestOnSaleCase } from './cases'
import { maskName } from '../prizes/prizes'

/** How often a page asks again: in line, and while nobody of theirs is drawing. */
const POLL_WAITING_MS = 3000
const POLL_IDLE_MS = 10000

/** The kuji series on sale (404 kuji.notFound otherwise), with its turn length and version. */
async function kujiSeries (db: Db, seriesId: number): Promise<{ turnS: number; version: number; priceCents: number }> {
  const s = await db.selectFrom('series').select(['kind', 'status', 'turn_s', 'version', 'price_cents']).where('id', '=', seriesId).executeTakeFirst()
  if (!s || s.kind !== 'kuji' || s.status !== 'on_sale') throw fail.notFound('kuji.notFound')
  return { turnS: Number(s.turn_s), version: Number(s.version), priceCents: Number(s.price_cents) }
}

// ---- the line ----------------------------------------------------------------------------------------

/**
 * Moves the line when it must: a turn that ran out ends, and with nobody drawing the first in line is
 * let in for turnS. Reads only when a turn is running or nobody waits.
 */
export async function moveLine (db: Db, clock: Clock, seriesId: number, turnS: number): Promise<void> {
  const now = iso(clock())
  const rows = await db.selectFrom('kuji_turns').select(['state', 'until'])
    .where('series_id', '=', seriesId).where('state', 'in', ['waiting', 'drawing']).execute()
  const drawing = rows.find(r => r.state === 'drawing')
  if (drawing && drawing.until !== null && drawing.until > now) return
  if (!drawing && !rows.some(r => r.state === 'waiting')) return
  await db.transaction().execute(async trx => {
    // the series row: one mover at a time, in every process
    await forUpdate(dialectOf(trx), trx.selectFrom('series').select('id').where('id', '=', seriesId)).execute()
    await trx.updateTable('kuji_turns').set({ state: 'left', until: null })
      .where('series_id', '=', seriesId).where('state', '=', 'drawing').where('until', '<=', now).execute()
    const still = await trx.selectFrom('kuji_turns').select('user_id').where('series_id', '=', seriesId).where('state', '=', 'drawing').executeTakeFirst()
    if (still) return
    const next = await trx.selectFrom('kuji_turns').select('user_id').where('series_id', '=', seriesId).where('state', '=', 'waiting')
      .orderBy('position').limit(1).executeTakeFirst()
    if (!next) return
    await trx.updateTable('kuji_turns').set({ state: 'drawing', until: iso(clock() + turnS * 1000) })
      .where('series_id', '=', seriesId).where('user_id', '=', Number(next.user_id)).execute()
  })
}

/** The caller's place (after moving the line). */
async function turnOf (db: Db, clock: Clock, seriesId: number, userId: number | null, turnS: number): Promise<KujiTurn> {
  await moveLine(db, clock, seriesId, turnS)
  const now = clock()
  const line = await db.selectFrom('kuji_turns').select(['user_id', 'state', 'position', 'until'])
    .where('series_id', '=', seriesId).where('state', 'in', ['waiting', 'drawing']).orderBy('position').execute()
  const none: KujiTurn = { state: 'none', ahead: null, waitSeconds: null, until: null, turnSeconds: turnS, inLine: line.length, pollMs: POLL_IDLE_MS }
  const mine = userId === null ? undefined : line.find(r => Number(r.user_id) === userId)
  if (!mine) return none
  if (mine.state === 'drawing') {
    const until = new Date(Date.parse(mine.until!)).toISOString()
    return { ...none, state: 'drawing', ahead: 0, waitSeconds: 0, until, pollMs: Math.max(1000, Math.min(POLL_WAITING_MS, Date.parse(until) - now)) }
  }
  const drawing = line.find(r => r.state === 'drawing')
  const aheadWaiting = line.filter(r => r.state === 'waiting' && r.position < mine.position).length
  const ahead = aheadWaiting + (drawing ? 1 : 0)
  // at most: the running turn's rest, then a whole turn for each one waiting ahead
  const rest = drawing?.until ? Math.max(0, Math.ceil((Date.parse(drawing.until) - now) / 1000)) : 0
  return { ...none, state: 'waiting', ahead, waitSeconds: rest + aheadWaiting * turnS, pollMs: POLL_WAITING_MS }
}

/** POST /api/kujiTurn: join the line (idempotent per account) or leave it (a turn ends at once). */
export async function kujiTurn (db: Db, clock: Clock, seriesId: number, userId: number, action: 'join' | 'leave'): Promise<KujiTurn> {
  const { turnS } = await kujiSeries(db, seriesId)
  const now = iso(clock())
  if (action === 'leave') {
    await db.updateTable('kuji_turns').set({ state: 'left', until: null })
      .where('series_id', '=', seriesId).where('user_id', '=', userId).where('state', 'in', ['waiting', 'drawing']).execute()
  } else {
    await db.transaction().execute(async trx => {
      const mine = await forUpdate(dialectOf(trx), trx.selectFrom('kuji_turns').select(['state', 'until'])
        .where('series_id', '=', seriesId).where('user_id', '=', userId)).executeTakeFirst()
      const inLine = mine && (mine.state === 'waiting' || (mine.state === 'drawing' && mine.until !== null && mine.until > now))
      if (inLine) return
      // the next place, from the series' counter: in order of arrival, in every process
      const { turn_next: position } = await trx.updateTable('series').set({ turn_next: sql<number>`turn_next + 1` })
        .where('id', '=', seriesId).returning('turn_next').executeTakeFirstOrThrow()
      await trx.insertInto('kuji_turns').values({ series_id: seriesId, user_id: userId, position: Number(position), state: 'waiting', until: null, joined_at: now })
        .onConflict(oc => oc.columns(['series_id', 'user_id']).doUpdateSet({ position: Number(position), state: 'waiting', until: null, joined_at: now }))
        .execute()
    })
  }
  return turnOf(db, clock, seriesId, userId, turnS)
}

/**
 * A draw is allowed only in the buyer's turn: checked inside the purchase's transaction, at its clock
 * (a turn that ran out a moment before is refused, and nothing moves).
 */
export async function requireTurn (trx: Db, clock: Clock, seriesId: number, userId: number): Promise<void> {
  const row = await trx.selectFrom('kuji_turns').select(['state', 'until']).where('series_id', '=', seriesId).where('user_id', '=', userId).executeTakeFirst()
  if (!row || row.state !== 'drawing' || row.until === null || row.until <= iso(clock())) throw new ApiFailure(409, 'kuji.notYourTurn', {}, { reason: 'kuji_not_your_turn' })
}

/** Before a draw's check (outside the purchase): the line moved, then the caller's turn required. */
export async function requireTurnNow (db: Db, clock: Clock, seriesId: number, userId: number): Promise<void> {
  const { turnS } = await kujiSeries(db, seriesId)
  await moveLine(db, clock, seriesId, turnS)
  await requireTurn(db, clock, seriesId, userId)
}

// ---- which cases are kuji sets -------------------------------------------------------------------------

const kujiOfCase = new WeakMap<object, Map<number, number | null>>()
const KUJI_CASES_KEPT = 100_000

/** The kuji series a case is a set of, or null for a blind-box case (kept: a case's series never changes). */
export async function kujiSeriesOfCase (db: Db, caseId: number): Promise<number | null> {
  let known = kujiOfCase.get(db)
  if (!known) kujiOfCase.set(db, known = new Map())
  const hit = known.get(caseId)
  if (hit !== undefined) return hit
  const row = await db.selectFrom('cases').innerJoin('series', 'series.id', 'cases.series_id').select(['series.id', 'series.kind']).where('cases.id', '=', caseId).executeTakeFirst()
  if (!row) return null
  const seriesId = row.kind === 'kuji' ? Number(row.id) : null
  if (known.size >= KUJI_CASES_KEPT) known.clear()
  known.set(caseId, seriesId)
  return seriesId
}

// ---- the board -----------------------------------------------------------------------------------------

/** POST /api/kujiBoard: the set on sale, what is left of each tier, recent draws and the caller's turn. */
export async function kujiBoard (db: Db, clock: Clock, seriesId: number, userId: number | null): Promise<KujiBoard> {
  const series = await kujiSeries(db, seriesId)
  const set = await oldestOnSaleCase(db, clock, seriesId)
  const setId = Number(set.id)
  const data = (await seriesCacheOf(db).get(db, seriesId, series.version))!
  const designs = new Map(data.designs.map(d => [Number(d.id), d]))
  const slots = await db.selectFrom('case_slots').select(['slot', 'design_id', 'sold_to']).where('case_id', '=', setId).orderBy('slot').execute()
  const soldOf = new Map<number, number>()
  const tickets: KujiTicket[] = slots.filter(s => s.slot <= set.size).map(s => {
    const sold = s.sold_to !== null
    const tier = sold ? designs.get(Number(s.design_id))?.tier ?? null : null
    if (sold) soldOf.set(Number(s.design_id), (soldOf.get(Number(s.design_id)) ?? 0) + 1)
    // an unsold ticket's design is the set's secret: only sold tickets say what they held
    return { ticket: s.slot, sold, tier, mine: sold && userId !== null && Number(s.sold_to) === userId }
  })
  const tiers = new Map<string, KujiTierRow>()
  for (const d of data.designs) {
    if (!d.tier || !TICKET_TIER.test(d.tier)) continue
    const row = tiers.get(d.tier) ?? { tier: d.tier, designs: [], tickets: 0, left: 0 }
    row.designs.push(designInfo(d, data.odds))
    row.tickets += Number(d.tickets)
    row.left += Number(d.tickets) - (soldOf.get(Number(d.id)) ?? 0)
    tiers.set(d.tier, row)
  }
  const lastOne = data.designs.find(d => d.tier === KUJI_LAST_ONE)
  if (!lastOne) throw fail.notFound('kuji.notFound')
  const chance = data.designs.find(d => d.tier === KUJI_DOUBLE_CHANCE)
  const [{ n: setNumber }, previous, recent, turn] = await Promise.all([
    db.selectFrom('cases').select(eb => eb.fn.countAll<number>().as('n')).where('series_id', '=', seriesId).where('id', '<=', setId).executeTakeFirstOrThrow(),
    db.selectFrom('cases').select('id').where('series_id', '=', seriesId).where('status', '=', 'sold_out').orderBy('id', 'desc').limit(1).executeTakeFirst(),
    recentDraws(db, seriesId),
    turnOf(db, clock, seriesId, userId, series.turnS)
  ])
  return {
    seriesId,
    setId,
    setNumber: Number(setNumber),
    commit: set.commit_hash,
    priceCents: series.priceCents,
    ticketCount: set.size,
    ticketsLeft: set.size - Number(set.sold_count),
    tiers: [...tiers.values()].sort((a, b) => a.tier.localeCompare(b.tier)),
    lastOne: designInfo(lastOne, data.odds),
    tickets,
    doubleChance: chance && set.dc_seed_hash ? { prize: designInfo(chance, data.odds), winners: Number(data.row.dc_winners), seedHash: set.dc_seed_hash } : null,
    recent,
    turn,
    previousSetId: previous ? Number(previous.id) : null
  }
}

const TICKET_TIER = /^[A-Z]$/

/** The latest draws of the series (real prizes from its sets, the Last One too), names masked. */
async function recentDraws (db: Db, seriesId: number): Promise<KujiDraw[]> {
  const rows = await db.selectFrom('prizes')
    .innerJoin('designs', 'designs.id', 'prizes.design_id')
    .innerJoin('users', 'users.id', 'prizes.user_id')
    .select(['prizes.slot', 'prizes.created_at', 'designs.tier', 'designs.name', 'designs.name_en', 'users.nickname', 'users.user_name'])
    .where('prizes.series_id', '=', seriesId).where('prizes.origin', '=', 'case').where('users.deleted_at', 'is', null)
    .orderBy('prizes.id', 'desc').limit(KUJI_RECENT_MAX).execute()
  return rows.map(r => ({
    name: maskName(r.nickname || r.user_name),
    tier: r.tier ?? '',
    design: text(r.name, r.name_en),
    ticket: Number(r.slot ?? 0),
    at: new Date(Date.parse(r.created_at)).toISOString()
  }))
}

// ---- the proof -----------------------------------------------------------------------------------------

/** POST /api/kujiProof: a set's commitment; its arrangement and salt, and the Last One's winner, once sold out. */
export async function kujiSetProof (db: Db, setId: number): Promise<KujiSetProof> {
  const c = await db.selectFrom('cases').innerJoin('series', 'series.id', 'cases.series_id')
    .selectAll('cases').select(['series.kind', 'series.dc_winners'])
    .where('cases.id', '=', setId).where('series.status', 'in', ['on_sale', 'retired']).executeTakeFirst()
  if (!c || c.kind !== 'kuji') throw fail.notFound('kuji.notFound')
  const designs = await db.selectFrom('designs').select(['id', 'tier', 'name', 'name_en']).where('series_id', '=', Number(c.series_id)).orderBy('sort').orderBy('id').execute()
  const revealed = c.status !== 'on_sale' && c.revealed_at !== null
  const winner = revealed
    ? await db.selectFrom('prizes').innerJoin('users', 'users.id', 'prizes.user_id').select(['users.nickname', 'users.user_name'])
      .where('prizes.case_id', '=', setId).where('prizes.slot', '=', c.size + 1).executeTakeFirst()
    : undefined
  return {
    caseId: setId,
    seriesId: Number(c.series_id),
    commit: c.commit_hash,
    status: c.status,
    revealed,
    ...(revealed ? { arrangement: JSON.parse(c.arrangement) as number[], salt: c.salt } : {}),
    ticketCount: c.size,
    tiers: designs.filter(d => d.tier).map(d => ({ designId: Number(d.id), tier: d.tier!, name: text(d.name, d.name_en) })),
    lastOneWinner: winner ? maskName(winner.nickname || winner.user_name) : null,
    doubleChance: c.dc_seed_hash === null ? null : {
      winners: Number(c.dc_winners),
      seedHash: c.dc_seed_hash,
      seed: c.dc_list_hash !== null ? c.dc_seed : null,
      entries: c.dc_list_hash !== null ? await doubleChanceEntries(db, setId, c.size) : null,
      listHash: c.dc_list_hash,
      winningTickets: c.dc_winning === null ? null : JSON.parse(c.dc_winning) as number[]
    }
  }
}

/** Every ticket of a set with the purchase that bought it, in ticket order (the Double Chance's list). */
async function doubleChanceEntries (db: Db, setId: number, size: number) {
  const rows = await db.selectFrom('prizes').select(['slot', 'purchase_id', 'user_id']).where('case_id', '=', setId).where('slot', '<=', size).orderBy('slot').execute()
  return rows.map(r => ({ ticket: Number(r.slot), purchaseId: Number(r.purchase_id), userId: Number(r.user_id) }))
}

/**
 * At a set's sell-out (in the purchase of its final ticket): the Double Chance drawn over the list of
 * its tickets' purchases with the seed committed when the set was made; each winning ticket's buyer is
 * given a Double Chance prize from the slots after the Last One. Answers the prizes given.
 */
export async function drawDoubleChance (trx: Db, setId: number, size: number, at: string): Promise<Array<{ id: number; slot: number; userId: number; designId: number }>> {
  const c = await trx.selectFrom('cases').select(['series_id', 'dc_seed', 'dc_list_hash']).where('id', '=', setId).executeTakeFirstOrThrow()
  if (c.dc_seed === null || c.dc_list_hash !== null) return []
  const entries = await doubleChanceEntries(trx, setId, size)
  const listHash = doubleChanceListHash(setId, entries)
  const slots = await trx.selectFrom('case_slots').select(['slot', 'design_id']).where('case_id', '=', setId).where('slot', '>', size + 1)
    .where('sold_to', 'is', null).orderBy('slot').execute()
  const winning = doubleChanceTickets(c.dc_seed, listHash, entries, slots.length)
  const given: Array<{ id: number; slot: number; userId: number; designId: number }> = []
  for (const [i, ticket] of winning.entries()) {
    const buyer = entries[ticket - 1].userId
    const { slot, design_id: designId } = slots[i]
    await trx.updateTable('case_slots').set({ sold_to: buyer, sold_at: at }).where('case_id', '=', setId).where('slot', '=', slot).where('sold_to', 'is', null).execute()
    const { id } = await trx.insertInto('prizes').values({
      user_id: buyer, series_id: Number(c.series_id), design_id: Number(designId), case_id: setId, slot, purchase_id: null, status: 'warehouse', created_at: at, updated_at: at
    }).returning('id').executeTakeFirstOrThrow()
    given.push({ id: Number(id), slot, userId: buyer, designId: Number(designId) })
  }
  await trx.updateTable('cases').set({ dc_list_hash: listHash, dc_winning: JSON.stringify(winning) }).where('id', '=', setId).execute()
  return given
}
