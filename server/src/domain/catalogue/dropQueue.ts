/**
 * A drop's waiting room (issue 50 item 4; docs/decisions/drops.md), in the database so that it holds
 * across processes and restarts.
 *
 * - Joining is idempotent per account (primary key drop_id + user_id): every tab and phone of an account
 *   holds the one place. Each arrival gets a lot, HMAC-SHA256(the drop's queue seed, `${dropId}:${userId}`);
 *   the seed's hash is published with the drop, the seed once the order is drawn.
 * - Arrivals before the start and in its first `windowSeconds` are put in order by their lots when the
 *   window closes (one UPDATE, by the first call after it): being fastest, or a script, gains nothing.
 *   Later arrivals get the next place in order of arrival (a counter on the drop row).
 * - At most `shoppersAtOnce` shop at a time (and never more than the drop has cases with a box left),
 *   each for `minutesEach`: the room lets the next places in
 *   when places free up (a time ran out, or a shopper bought: servedInRoom), at most once a second for the whole drop (a conditional UPDATE on the drop row
 *   is the turn; every other call only reads). Only shoppers let in are shown a case or may buy from the
 *   drop (cases.ts, the purchase routes).
 */
import { createHmac } from 'node:crypto'
import { sql, type Selectable } from 'kysely'
import type { QueueView } from '../../../../types/drop'
import type { Db } from '../../db'
import type { DropQueueTable } from '../../db/tables/catalogue'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { prepared } from '../../db/prepared'
import { requireRaffleWinner } from './raffle'

/** The room lets people in at most this often (the whole drop, every process). */
const ADVANCE_EVERY_MS = 1000
const POLL_NEAR_MS = 2000
const POLL_FAR_MS = 5000
/**
 * Someone there before the draw asks again at once, and that ask is held (roomHold.ts) until the order is
 * drawn, when they are told their place together with everyone held. Told to come back after the draw
 * instead (at a point set by their lot, 2026-11-28), they came back while the sale was on, each on a new
 * connection, and waited seconds for a process at a full core to take it (bench/drop.js: the place told
 * p99 4-11 s); held from their arrival, they are answered over the connection they came by.
 */
const EARLY_POLL_MS = 0

const lotsKept = new Map<string, { seed: string; lot: string }>()
const LOTS_KEPT_MAX = 50_000
/** A caller's lot (kept: every answer of the room names it, and a drop's crowd asks again and again). */
export function lotOf (seed: string, dropId: number, userId: number): string {
  const key = `${dropId}:${userId}`
  const kept = lotsKept.get(key)
  // kept with its seed: another database (a test's) may have a drop of the same id
  if (kept?.seed === seed) return kept.lot
  const lot = createHmac('sha256', seed).update(key).digest('hex')
  if (lotsKept.size >= LOTS_KEPT_MAX) lotsKept.clear()
  lotsKept.set(key, { seed, lot })
  return lot
}

/*
 * The room's statements that come with every ask, built once (db/prepared.ts): building and compiling
 * them again for each of a drop's tens of thousands of asks was a sixth of the shop's time
 * (bench/drop.js, profiled).
 */
const roomRow = prepared((db: Db, dropId: number) => db.selectFrom('drops')
  .select(['id', 'series_id', 'starts_at', 'queue_size', 'queue_window_s', 'queue_shop_s', 'queue_seed', 'queue_seed_hash', 'queue_ordered_at', 'queue_frontier', 'queue_advanced_at'])
  .where('id', '=', dropId))
const seriesStatus = prepared((db: Db, seriesId: number) => db.selectFrom('series').select('status').where('id', '=', seriesId))
const queueRow = prepared((db: Db, dropId: number, userId: number) => db.selectFrom('drop_queue').selectAll().where('drop_id', '=', dropId).where('user_id', '=', userId))
const joinRoom = prepared((db: Db, dropId: number, userId: number, lot: string, arrivedAt: string, position: number | null) => db.insertInto('drop_queue')
  .values({ drop_id: dropId, user_id: userId, lot, arrived_at: arrivedAt, position, state: 'waiting', until: null })
  .onConflict(oc => oc.columns(['drop_id', 'user_id']).doNothing())
  .returningAll())
const boxesLeft = prepared((db: Db, dropId: number) => db.selectFrom('cases').select(eb => eb.fn.sum<number>(sql`size - sold_count`).as('n'))
  .where('drop_id', '=', dropId).where('status', 'in', ['scheduled', 'on_sale']))
const shoppingNow = prepared((db: Db, dropId: number, now: string) => db.selectFrom('drop_queue').select(eb => eb.fn.countAll<number>().as('n'))
  .where('drop_id', '=', dropId).where('state', '=', 'shopping').where('until', '>', now))
// the room's turn (letIn): a transaction on every purchase from the drop
// each answers the room's figures as they are once the drop's row is this turn's (the row read before
// may be older: another turn, here or in another process, moved the frontier since)
const forcedTurn = prepared((db: Db, now: string, dropId: number) => db.updateTable('drops').set({ queue_advanced_at: now }).where('id', '=', dropId)
  .returning(['queue_size', 'queue_shop_s', 'queue_frontier']))
const dueTurn = prepared((db: Db, now: string, dropId: number, dueBy: string) => db.updateTable('drops').set({ queue_advanced_at: now }).where('id', '=', dropId)
  .where(eb => eb.or([eb('queue_advanced_at', 'is', null), eb('queue_advanced_at', '<=', dueBy)])).returning(['queue_size', 'queue_shop_s', 'queue_frontier']))
const timesRunOut = prepared((db: Db, dropId: number, now: string) => db.updateTable('drop_queue').set({ state: 'left' })
  .where('drop_id', '=', dropId).where('state', '=', 'shopping').where('until', '<=', now))
const shoppingCount = prepared((db: Db, dropId: number) => db.selectFrom('drop_queue').select(eb => eb.fn.countAll<number>().as('n'))
  .where('drop_id', '=', dropId).where('state', '=', 'shopping'))
const casesWithBoxLeft = prepared((db: Db, dropId: number) => db.selectFrom('cases').select(eb => eb.fn.countAll<number>().as('n'))
  .where('drop_id', '=', dropId).where('status', 'in', ['scheduled', 'on_sale']).where(sql<boolean>`sold_count < size`))
const nextInLine = prepared((db: Db, dropId: number, frontier: number, room: number) => db.selectFrom('drop_queue').select(['user_id', 'position'])
  .where('drop_id', '=', dropId).where('position', '>', frontier).where('state', '=', 'waiting').orderBy('position').limit(room))
const letThemIn = prepared((db: Db, until: string, dropId: number, frontier: number, last: number) => db.updateTable('drop_queue').set({ state: 'shopping', until })
  .where('drop_id', '=', dropId).where('position', '>', frontier).where('position', '<=', last).where('state', '=', 'waiting'))
const moveFrontier = prepared((db: Db, last: number, lastAgain: number, dropId: number) => db.updateTable('drops')
  .set({ queue_frontier: sql<number>`case when queue_frontier < ${last} then ${lastAgain} else queue_frontier end` }).where('id', '=', dropId))
const letInRow = prepared((db: Db, userId: number, dropId: number) => db.selectFrom('drops')
  .leftJoin('drop_queue', join => join.onRef('drop_queue.drop_id', '=', 'drops.id').on('drop_queue.user_id', '=', userId))
  .select(['drops.queue_size', 'drops.raffle_closes_at', 'drop_queue.state', 'drop_queue.until'])
  .where('drops.id', '=', dropId))

/** Not let in (or the time ran out): 409 with the drop, so the page shows the waiting room. */
export const inQueue = (dropId: number): ApiFailure => new ApiFailure(409, 'drop.queue', {}, { reason: 'queue', dropId })

interface RoomRow {
  id: number; series_id: number; starts_at: string; queue_size: number | null; queue_window_s: number | null; queue_shop_s: number | null
  queue_seed: string | null; queue_seed_hash: string | null; queue_ordered_at: string | null; queue_frontier: number
  queue_advanced_at: string | null
}

async function roomOf (db: Db, dropId: number): Promise<RoomRow | undefined> {
  return roomRow.first(db, dropId)
}

/**
 * This process's latest look at a room (the drop row, its series' status, the boxes left and how many
 * are shopping), kept for ROOM_FRESH_MS: at a drop thousands wait and ask again every few seconds, and
 * each of those answers then costs one read of the caller's own row (bench/drop.js). Every write to the
 * room in this process forgets it; another process's writes are seen at most ROOM_FRESH_MS late.
 * Keyed by the database handle (tests run several shops in one process).
 */
const ROOM_FRESH_MS = 250
export interface RoomLook { at: number; d: RoomRow; seriesStatus: string | null; boxesLeft: number; shopping: number }
const roomLooks = new WeakMap<object, Map<number, RoomLook>>()
/**
 * The look being read now, by drop: every ask that finds the kept look stale while it is read waits for
 * it instead of reading its own. Without this, on PostgreSQL each of a drop's thousand asks a second
 * read the room (four statements) in the round trips the first look took, the pool queued them, and
 * the looks took longer still: the answers' time in the server went to seconds (bench/drop.js, 2 API
 * processes).
 */
const roomLooking = new WeakMap<object, Map<number, { at: number; look: Promise<RoomLook | undefined> }>>()

function forgetRoom (db: Db, dropId: number): void {
  roomLooks.get(db)?.delete(dropId)
  // a look begun before this process wrote to the room is not taken after it
  roomLooking.get(db)?.delete(dropId)
}

export async function lookAtRoom (db: Db, dropId: number, now: number): Promise<RoomLook | undefined> {
  let looks = roomLooks.get(db)
  if (!looks) roomLooks.set(db, looks = new Map())
  const kept = looks.get(dropId)
  if (kept && now >= kept.at && now - kept.at < ROOM_FRESH_MS) return kept
  let looking = roomLooking.get(db)
  if (!looking) roomLooking.set(db, looking = new Map())
  const pending = looking.get(dropId)
  if (pending && now >= pending.at && now - pending.at < ROOM_FRESH_MS) return pending.look
  const reading = { at: now, look: readLook(db, dropId, now) }
  looking.set(dropId, reading)
  try {
    const look = await reading.look
    // kept unless the room was forgotten (written to) while it was read
    if (look && looking.get(dropId) === reading) {
      if (looks.size > 100) looks.clear()
      looks.set(dropId, look)
    }
    return look
  } finally {
    if (looking.get(dropId) === reading) looking.delete(dropId)
  }
}

async function readLook (db: Db, dropId: number, now: number): Promise<RoomLook | undefined> {
  const d = await roomOf(db, dropId)
  if (!d) return undefined
  const series = await seriesStatus.first(db, Number(d.series_id))
  return { at: now, d, seriesStatus: series?.status ?? null, ...await leftAndShopping(db, dropId, now) }
}

const orderAtOf = (d: RoomRow) => new Date(d.starts_at).getTime() + Number(d.queue_window_s ?? 0) * 1000

/**
 * Puts the window's arrivals in order by their lots, once (the first call after the window closes wins).
 * Answers whether the room may have changed since `d` was read (it was due: this call or another drew).
 */
async function drawOrder (db: Db, clock: Clock, d: RoomRow): Promise<boolean> {
  if (d.queue_ordered_at !== null || clock() < orderAtOf(d)) return false
  forgetRoom(db, Number(d.id))
  // every ask in the moment the window closes finds the order due: one draw per process, the rest wait
  // for it (each of their own would wait on the drop's row, holding a connection of the pool)
  return once(drawing, db, Number(d.id), () => draw(db, clock, d))
}

async function draw (db: Db, clock: Clock, d: RoomRow): Promise<boolean> {
  return db.transaction().execute(async trx => {
    const won = await trx.updateTable('drops').set({ queue_ordered_at: iso(clock()) })
      .where('id', '=', Number(d.id)).where('queue_ordered_at', 'is', null).returning('id').executeTakeFirst()
    if (!won) return true
    const ranked = await sql<{ n: number }>`
      update drop_queue set position = r.rn
      from (select user_id, row_number() over (order by lot, user_id) as rn from drop_queue where drop_id = ${Number(d.id)} and position is null) r
      where drop_queue.drop_id = ${Number(d.id)} and drop_queue.user_id = r.user_id`.execute(trx)
    await trx.updateTable('drops').set({ queue_next: Number(ranked.numAffectedRows ?? 0n) }).where('id', '=', Number(d.id)).execute()
    return true
  })
}

/**
 * The next place in order of arrival (after the draw). The places asked for in this process in the same
 * turn of the event loop are taken in one statement, in the order they were asked for: each its own, the
 * drop's row was written thousands of times in the sale's first seconds (those who came in the window but
 * were read after it closed), each write waiting for the one before and for the room's turns (3.7 ms a
 * write on PostgreSQL, bench/drop.js --pg-stats).
 */
function nextPlace (db: Db, dropId: number): Promise<number> {
  forgetRoom(db, dropId)
  let byDrop = placing.get(db)
  if (!byDrop) placing.set(db, byDrop = new Map())
  const asking = byDrop.get(dropId)
  return new Promise((resolve, reject) => {
    if (asking) { asking.push({ resolve, reject }); return }
    const batch = [{ resolve, reject }]
    byDrop.set(dropId, batch)
    setImmediate(() => {
      if (byDrop.get(dropId) === batch) byDrop.delete(dropId)
      db.updateTable('drops').set({ queue_next: sql<number>`queue_next + ${batch.length}` }).where('id', '=', dropId)
        .returning('queue_next').executeTakeFirstOrThrow()
        .then(row => batch.forEach((asked, i) => asked.resolve(Number(row.queue_next) - batch.length + 1 + i)),
          err => batch.forEach(asked => asked.reject(err)))
    })
  })
}
const placing = new WeakMap<object, Map<number, Array<{ resolve: (place: number) => void; reject: (err: unknown) => void }>>>()

/**
 * Lets the next places in while fewer than the room's size are shopping; at most once a second per drop.
 * Answers whether the room may have changed (the turn was due: this call or a racing one took it).
 */
async function letIn (db: Db, clock: Clock, d: RoomRow, force = false): Promise<boolean> {
  const now = clock()
  if (d.queue_ordered_at === null || now < orderAtOf(d)) return false
  // not this room's turn yet (as last seen): no write at all
  if (!force && d.queue_advanced_at !== null && new Date(d.queue_advanced_at).getTime() > now - ADVANCE_EVERY_MS) return false
  const dropId = Number(d.id)
  const busy = turning.get(db)?.get(dropId)
  if (busy) {
    // a turn is being taken in this process: a due one is that turn; a purchase's (forced) is one more
    // turn after it, shared by every purchase in the meantime. Each their own, they queued on the drop's
    // row holding the pool's connections, and every other call waited for a connection: on PostgreSQL
    // with two processes the room's answers took seconds in the server (bench/drop.js)
    if (!force) return busy.running
    busy.forcedAfter ??= busy.running.catch(() => false).then(() => letIn(db, clock, d, true))
    return busy.forcedAfter
  }
  const entry: Turning = { running: turn(db, clock, dropId, force), forcedAfter: null }
  let map = turning.get(db)
  if (!map) turning.set(db, map = new Map())
  map.set(dropId, entry)
  const done = () => { if (map.get(dropId) === entry) map.delete(dropId) }
  entry.running.then(done, done)
  return entry.running
}

/** A turn being taken by this process, per database handle, per drop (letIn). */
interface Turning { running: Promise<boolean>; forcedAfter: Promise<boolean> | null }
const turning = new WeakMap<object, Map<number, Turning>>()

async function turn (db: Db, clock: Clock, dropId: number, force: boolean): Promise<boolean> {
  const now = clock()
  await db.transaction().execute(async trx => {
    // the drop's row written first: turns (forced ones too) take it one at a time, each counting what
    // the one before let in
    const d = await (force ? forcedTurn.first(trx, iso(now), dropId) : dueTurn.first(trx, iso(now), dropId, iso(now - ADVANCE_EVERY_MS)))
    if (!d) return
    await timesRunOut.execute(trx, dropId, iso(now))
    const shopping = Number((await shoppingCount.first(trx, dropId))?.n ?? 0)
    // no more shopping at once than cases with a box left: each of them is shown a case nobody else is
    // (cases.ts), so at the end of a drop nobody loses a box they picked to someone shown the same case
    // (bench/drop.js: "slot sold" 3-4 % of answers with the room's 200 let in on the last few cases)
    const cases = Number((await casesWithBoxLeft.first(trx, dropId))?.n ?? 0)
    const room = Math.min(Number(d.queue_size), cases) - shopping
    if (room <= 0) return
    // every place up to the frontier has been let in (places are let in lowest first, and later ones are
    // given after every place drawn): the index on (drop_id, position) is read from there, not past the
    // thousands let in before (a turn is taken on every purchase)
    const next = (await nextInLine.execute(trx, dropId, Number(d.queue_frontier), room)).rows
    if (next.length === 0) return
    // those places: every waiting place past the frontier up to the last of them (places past the
    // frontier are only ever given at the back, past these), by the (drop, place) index; by a list of
    // users, SQLite went through every waiting row of the drop instead (2.5 ms a turn with 6,000
    // waiting, bench/drop.js)
    const frontier = Math.max(...next.map(r => Number(r.position)))
    await letThemIn.execute(trx, iso(now + Number(d.queue_shop_s) * 1000), dropId, Number(d.queue_frontier), frontier)
    await moveFrontier.execute(trx, frontier, frontier, dropId)
  })
  forgetRoom(db, dropId)
  return true
}

/**
 * `work` once per database handle and drop at a time in this process: a call while it runs shares its
 * answer (drawOrder).
 */
const drawing = new WeakMap<object, Map<number, Promise<boolean>>>()
function once (running: WeakMap<object, Map<number, Promise<boolean>>>, db: Db, dropId: number, work: () => Promise<boolean>): Promise<boolean> {
  let map = running.get(db)
  if (!map) running.set(db, map = new Map())
  const busy = map.get(dropId)
  if (busy) return busy
  const p = work()
  map.set(dropId, p)
  const done = () => { if (map.get(dropId) === p) map.delete(dropId) }
  p.then(done, done)
  return p
}

/** Boxes unsold in the drop's cases, and how many are shopping now. */
async function leftAndShopping (db: Db, dropId: number, now: number): Promise<{ boxesLeft: number; shopping: number }> {
  const left = await boxesLeft.first(db, dropId)
  const shopping = await shoppingNow.first(db, dropId, iso(now))
  return { boxesLeft: Number(left?.n ?? 0), shopping: Number(shopping?.n ?? 0) }
}

/** The caller's row in a room, as read. */
export type QueueRow = Selectable<DropQueueTable>

/** What a room answer is made of: the room as last looked at, the caller's row, their lot, and when. */
export interface Place { look: RoomLook; mine: QueueRow; lot: string; now: number }

/**
 * Joins the room (once per account) and reads the caller's place; the room's turn is taken if due.
 * `known`: the caller's row as read for their last (held) answer (roomHold.ts), taken instead of a read
 * while it is waiting with a place the room as seen has not passed: only the room's turn changes such a
 * row, and it moves the frontier past it.
 */
export async function takePlace (db: Db, clock: Clock, dropId: number, userId: number, known?: QueueRow): Promise<Place> {
  const now = clock()
  let look = await lookAtRoom(db, dropId, now)
  if (!look) throw fail.notFound('drop.notFound')
  const d = look.d
  if (d.queue_size === null || d.queue_seed === null) throw new ApiFailure(409, 'drop.noQueue', {}, { reason: 'no_queue' })
  if (look.seriesStatus === null || look.seriesStatus === 'draft') throw fail.notFound('drop.notFound')
  const orderAt = orderAtOf(d)
  let wrote = await drawOrder(db, clock, d)
  // waiting at a place the room as seen has not reached, or (before the draw, which nobody has taken) with
  // no place yet
  const stillWaiting = known !== undefined && !wrote && Number(known.drop_id) === dropId && Number(known.user_id) === userId && known.state === 'waiting' &&
    (known.position !== null ? Number(known.position) > Number(d.queue_frontier) : now < orderAt && d.queue_ordered_at === null)
  const lot = lotOf(d.queue_seed, dropId, userId)
  // `current`: mine is the row as the database holds it (read, or written and returned, just now)
  let mine: QueueRow | undefined = stillWaiting ? known : undefined
  if (!mine && now < orderAt && known === undefined) {
    // before the draw a place is a lot: an arrival joins and has its row in one statement (the window's
    // thousands of first asks were a read, the insert and a read again); a second ask finds its row
    mine = await joinRoom.first(db, dropId, userId, lot, iso(now), null)
  }
  let current = mine !== undefined
  if (!mine) { mine = await queueRow.first(db, dropId, userId); current = true }
  if (!mine || (mine.position === null && now >= orderAt)) {
    // after the draw, the next place in order of arrival (an arrival whose insert raced the draw gets
    // one too); before it, no place (an early caller whose row was there already writes nothing)
    const position = now < orderAt ? null : await nextPlace(db, dropId)
    wrote = true
    current = false
    if (!mine) {
      await joinRoom.execute(db, dropId, userId, lot, iso(now), position)
    } else {
      await db.updateTable('drop_queue').set({ position }).where('drop_id', '=', dropId).where('user_id', '=', userId).where('position', 'is', null).execute()
    }
  } else if (mine.state === 'left' && mine.until !== null && new Date(mine.until).getTime() <= now) {
    // their time ran out: back in line, at the back
    wrote = true
    current = false
    await db.updateTable('drop_queue').set({ state: 'waiting', until: null, position: await nextPlace(db, dropId) })
      .where('drop_id', '=', dropId).where('user_id', '=', userId).where('state', '=', 'left').execute()
  }
  if (wrote) look = (await lookAtRoom(db, dropId, now))!
  // once a second at most for the whole drop, someone's call lets the next places in
  const turned = await takeTurn(db, clock, dropId, look, now)
  if (turned) { look = turned; current = false }
  if (!current || !mine) mine = await queueRow.first(db, dropId, userId)
  if (!mine) throw new Error(`drop ${dropId}: no place for user ${userId} after joining`)
  return { look, mine, lot, now }
}

/**
 * The room's turn, when it is due (at most once a second for the whole drop): the order drawn once the
 * window closes, and the next places let in. Answers the room looked at again when it may have changed,
 * else null.
 */
export async function takeTurn (db: Db, clock: Clock, dropId: number, look: RoomLook, now: number): Promise<RoomLook | null> {
  if (now < orderAtOf(look.d)) return null
  // the window's arrivals put in order first, if nobody has yet (a room whose callers are all held)
  const drew = await drawOrder(db, clock, look.d)
  const seen = drew ? await lookAtRoom(db, dropId, now) : look
  if (!seen) return null
  if (!await letIn(db, clock, seen.d)) return drew ? seen : null
  return (await lookAtRoom(db, dropId, now)) ?? null
}

/** The caller's answer from a place (no statement: held answers are made from rows already read). */
export function viewOf ({ look, mine, lot, now }: Place): QueueView {
  const { d, boxesLeft, shopping } = look
  const dropId = Number(d.id)
  const until = mine.until === null ? null : new Date(mine.until).getTime()
  const isShopping = isTurn(mine.state, mine.until, now)
  const position = mine.position === null ? null : Number(mine.position)
  const ahead = position === null || isShopping ? null : Math.max(0, position - Number(d.queue_frontier) - 1)
  const size = Number(d.queue_size)
  const state: QueueView['state'] = boxesLeft === 0 && !isShopping
    ? 'sold_out'
    : isShopping ? 'shopping' : mine.state === 'left' ? 'left' : position === null ? 'early' : 'waiting'
  return {
    dropId,
    state,
    position,
    ahead,
    waitSeconds: ahead === null ? null : Math.ceil((ahead + 1) / size) * Number(d.queue_shop_s),
    shoppingUntil: isShopping ? iso(until!) : null,
    turnSeconds: Number(d.queue_shop_s),
    startsAt: iso(new Date(d.starts_at).getTime()),
    orderAt: iso(orderAtOf(d)),
    lot,
    seedHash: d.queue_seed_hash ?? '',
    seed: d.queue_ordered_at !== null ? d.queue_seed : null,
    boxesLeft,
    allHeld: boxesLeft > 0 && shopping >= boxesLeft,
    pollMs: state === 'early' ? EARLY_POLL_MS : state === 'waiting' && ahead !== null && ahead < size ? POLL_NEAR_MS : POLL_FAR_MS
  }
}

/** POST /api/dropQueue without waitMs: joins the room (once per account) and answers the caller's place. */
export async function joinQueue (db: Db, clock: Clock, dropId: number, userId: number): Promise<QueueView> {
  return viewOf(await takePlace(db, clock, dropId, userId))
}

/**
 * Whether the caller may be shown a case of the series' drop or buy from it: throws 409 drop.queue when
 * the drop has a waiting room and they are not shopping now. `dropId` null: the series has no live drop.
 */
export async function requireLetIn (db: Db, clock: Clock, dropId: number | null, userId: number | null): Promise<void> {
  if (dropId === null) return
  const row = await letInRow.first(db, userId ?? -1, dropId)
  // a raffle drop: only its winners, within their time (raffle.ts)
  if (row && row.raffle_closes_at !== null) return requireRaffleWinner(db, clock, dropId, userId)
  if (!row || row.queue_size === null) return
  if (userId !== null && isTurn(row.state, row.until, clock())) return
  throw inQueue(dropId)
}

/**
 * Their turn is on: let in and not yet out of time. 'shopping' holds a place of the room; 'left' with
 * time still to run is a shopper who has bought (servedInRoom): their place went to the next in line,
 * and they may still buy until their time ends. ('left' after the time ran out is out.)
 */
function isTurn (state: string | null, until: string | null, now: number): boolean {
  return (state === 'shopping' || state === 'left') && until !== null && new Date(until).getTime() > now
}

/** A buyer's place given up, and their lease of the case ended (servedInRoom; built once). */
const leaveRoom = prepared((db: Db, dropId: number, userId: number, now: string) => db.updateTable('drop_queue').set({ state: 'left' })
  .where('drop_id', '=', dropId).where('user_id', '=', userId).where('state', '=', 'shopping').where('until', '>', now)
  .returning('user_id'))
const endLease = prepared((db: Db, now: string, caseId: number, userId: number) => db.updateTable('case_leases').set({ until: now })
  .where('case_id', '=', caseId).where('user_id', '=', userId))

/**
 * After a purchase from the drop: the buyer has been served, so their place in the room goes to the next
 * in line at the next turn (they may still buy until their time ends). Without this a buyer who left
 * would hold a place for the whole of their time, and the room would let in K shoppers per T, not per
 * purchase (bench/drop.js measured it). One UPDATE by the primary key (two for a buyer in a room).
 */
export async function servedInRoom (db: Db, clock: Clock, dropId: number, userId: number, caseId: number): Promise<void> {
  forgetRoom(db, dropId)
  const now = iso(clock())
  const served = await leaveRoom.first(db, dropId, userId, now)
  // and the case they bought from, if it has boxes left, to the next shopper let in: a lease (cases.ts)
  // would keep it from everyone else for its minute, and with a turn's worth let in at once the free
  // cases run out and shoppers are put together on shared ones (bench/drop.js: 9 % "slot sold")
  if (!served) return
  await endLease.execute(db, now, caseId, userId)
  // the place goes to the next in line now, not at the room's next turn: at the end of a drop, with a
  // shopper per case left, a turn a second left the last cases selling one purchase a second
  const d = await roomOf(db, dropId)
  if (d && d.queue_size !== null) await letIn(db, clock, d, true)
  forgetRoom(db, dropId)
}

/**
 * Which drop each case belongs to, per database: a case's drop never changes once it is made, so the
 * answer is kept (the case calls note it from the row they read anyway), and a purchase of a case made
 * on demand costs no statement of its own for it (test/server/remembered-sessions.test.ts counts them).
 * Keyed by the database handle: tests run several shops in one process, each with its own case ids.
 */
const caseDrops = new WeakMap<object, Map<number, number | null>>()
const CASE_DROPS_MAX = 200_000

function caseDropsOf (db: Db): Map<number, number | null> {
  let known = caseDrops.get(db)
  if (!known) caseDrops.set(db, known = new Map())
  return known
}

/** Notes a case's drop from a row already read (null: made on demand). */
export function noteCaseDrop (db: Db, caseId: number, dropId: number | null): void {
  const known = caseDropsOf(db)
  if (known.size >= CASE_DROPS_MAX) known.clear()
  known.set(caseId, dropId === null ? null : Number(dropId))
}

/** The drop a case belongs to (null: a case made on demand, or no such case). */
export async function dropOfCase (db: Db, caseId: number): Promise<number | null> {
  const known = caseDropsOf(db)
  if (known.has(caseId)) return known.get(caseId)!
  const row = await db.selectFrom('cases').select('drop_id').where('id', '=', caseId).executeTakeFirst()
  if (!row) return null
  const dropId = row.drop_id === null ? null : Number(row.drop_id)
  noteCaseDrop(db, caseId, dropId)
  return dropId
}

/** Whether a drop still has a case with a box to sell (or one waiting for its start). */
export async function dropHasCasesLeft (db: Db, dropId: number): Promise<boolean> {
  const row = await db.selectFrom('cases').select('id').where('drop_id', '=', dropId).where('status', 'in', ['scheduled', 'on_sale']).limit(1).executeTakeFirst()
  return row !== undefined
}

/** The series' latest drop when it has a waiting room (null: none; one indexed read). */
const latestDropOf = prepared((db: Db, seriesId: number) => db.selectFrom('drops').select(['id', 'queue_size', 'raffle_closes_at']).where('series_id', '=', seriesId)
  .orderBy('id', 'desc').limit(1))

/** The series' latest drop when it lets in only some (a waiting room, or a raffle's winners); null: none. */
export async function roomDropOf (db: Db, seriesId: number): Promise<number | null> {
  const row = await latestDropOf.first(db, seriesId)
  return row && (row.queue_size !== null || row.raffle_closes_at !== null) ? Number(row.id) : null
}
