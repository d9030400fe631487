/**
 * Held answers of a drop's waiting room: POST /api/dropQueue with waitMs (a long poll; issue 50 item 8,
 * docs/decisions/drop-queue.md). At a drop thousands wait in line; asking every 2-5 s each, they cost the
 * database thousands of requests a second, and a shopper far back learned of a sell-out up to 5 s late.
 * A caller waiting in line (state 'waiting'), or there before the order is drawn ('early'), is instead
 * answered:
 *  - an early one, when the order is drawn, with their place (all told together; they ask again over a
 *    span as long as their number needs, front first);
 *  - at once when they are let in, when the drop sells out (no box left), and when every box left comes
 *    to be held by shoppers let in;
 *  - otherwise after three quarters to all of waitMs (at random), with the room as last seen and pollMs 0 (ask
 *    again now: held again).
 * While anyone is held in a room, this process looks at the room every TICK_MS (the look is shared by all
 * of them: lookAtRoom keeps it ROOM_FRESH_MS), takes the room's turn when it is due (so the line moves
 * even when nobody asks), and reads the rows of the held callers the room's frontier has passed, in one
 * statement. A held answer itself costs no statement: its row was read when it came, and only the room's
 * turn changes a waiting row. Another process's sale is seen within a tick and the look's freshness.
 */
import type { QueueView } from '../../../../types/drop'
import type { Db } from '../../db'
import type { Clock } from '../../core/clock'
import { lookAtRoom, takePlace, takeTurn, viewOf, type Place, type QueueRow, type RoomLook } from './dropQueue'

/** How often a room with held callers is looked at (its turn is once a second at most). */
const TICK_MS = 500
/**
 * Those held before the draw (most of a drop's crowd) are told their place together, in slices (inSlices),
 * and each asks again, held for their turn, at a point of a span set by how many were told, front first:
 * DRAW_RETURN_PER_S asks a second, over DRAW_RETURN_MAX_MS at most. Told at 1,000 a second with the next
 * ask at once, the back of ten thousand learned their place ten seconds after the draw; all asking again
 * at once, every request behind them (the first purchases among them) waited 4-5 s (bench/drop.js).
 */
const DRAW_RETURN_PER_S = 1000
const DRAW_RETURN_MAX_MS = 10_000
/**
 * The draw's answers go out DRAW_SLICE at a time: in slices of 200, each waiting for the requests
 * between them (the first purchases, the first asks again), the back of ten thousand learned its place
 * 8 s after the draw (bench/drop.js). The asks again start once everyone is told, at about
 * DRAW_TELL_MS_EACH an answer.
 */
const DRAW_SLICE = 1000
const DRAW_TELL_MS_EACH = 0.2
/** A purchase's look at the room (nudgeRoom) comes at least this long after the last look. */
const NUDGE_MS = 100

interface Held {
  userId: number
  place: Place
  allHeld: boolean
  answer: (view: QueueView) => void
  timer: ReturnType<typeof setTimeout>
  /** The answer it is about to be given (spread): no later tick answers it again. */
  settled?: QueueView
  /** Their row as last read (given a place at the draw: read again then). */
  row: QueueRow
  /** When their hold ends (epoch ms). */
  endsAt: number
}
interface Room {
  held: Set<Held>
  /**
   * Who a tick must look at, kept as they come and go rather than found by going over everyone held
   * (ten thousand at a drop, looked at every tick and after every purchase: a twentieth of the shop's
   * time, bench/drop.js profiled): those held with no place yet (told theirs at the draw), the frontier
   * those with a place were last checked against, and whether everyone held has been told that every
   * box left is held.
   */
  early: Set<Held>
  checkedFrontier: number
  /** Someone was held with a place the room's last look had passed (their own look was older). */
  recheck: boolean
  allHeldTold: boolean
  ticker: ReturnType<typeof setInterval>
  ticking: boolean
  look: RoomLook | null
  /** A look asked for by a purchase (nudgeRoom) and not yet taken. */
  nudged: boolean
  /** When the room was last looked at (epoch ms). */
  lookedAt: number
  /** One look at the room (its failure told to the first caller's onError). */
  tick: () => Promise<void>
}

/** Per database handle (tests run several shops in one process), per drop. */
const rooms = new WeakMap<object, Map<number, Room>>()

function roomsOf (db: Db): Map<number, Room> {
  let map = rooms.get(db)
  if (!map) rooms.set(db, map = new Map())
  return map
}

/**
 * The rows of callers just given a held answer while still in line, by drop, by user: their next ask
 * (at once: the hold paces them) is answered without reading the row again. A waiting row with a place
 * changes only when the room lets it in, which moves the room's frontier past it, so the row is taken
 * only while the room as seen has not passed it (takePlace); another process's turn is seen with the
 * look's freshness, and the tick answers them then. Each row is taken once; a drop's map is dropped
 * whole past REMEMBERED_MAX (those never back).
 */
const remembered = new WeakMap<object, Map<number, Map<number, QueueRow>>>()
const REMEMBERED_MAX = 50_000

function rememberedOf (db: Db, dropId: number): Map<number, QueueRow> {
  let byDrop = remembered.get(db)
  if (!byDrop) remembered.set(db, byDrop = new Map())
  let rows = byDrop.get(dropId)
  if (!rows || rows.size >= REMEMBERED_MAX) byDrop.set(dropId, rows = new Map())
  return rows
}

/**
 * POST /api/dropQueue: the caller's place; with waitMs > 0 and the caller waiting in line (or early) at
 * the place they were last told (seenPosition, when given), held until it changes (a place, let in, every box held, sold out) or most of waitMs passes. `onError` hears a failed look at the room (the held
 * answers then wait for the next tick, or their time).
 */
export async function queueAnswer (db: Db, clock: Clock, dropId: number, userId: number, { waitMs, seenPosition }: { waitMs: number; seenPosition?: number | null }, onError: (err: unknown) => void): Promise<QueueView> {
  const rows = waitMs > 0 ? rememberedOf(db, dropId) : null
  const known = rows?.get(userId)
  if (known) rows!.delete(userId)
  const place = await takePlace(db, clock, dropId, userId, known)
  const view = viewOf(place)
  // early: their next ask (held until the draw) needs no read of their row either; only the draw gives
  // it a place, and the draw is seen before the row is taken (takePlace)
  if (view.state === 'early') rememberedOf(db, dropId).set(userId, place.mine)
  if (waitMs <= 0 || (view.state !== 'waiting' && view.state !== 'early')) return view
  // given a place they have not been told (their held ask came after the draw, say): told now, and
  // held from their next ask
  if (seenPosition !== undefined && view.position !== seenPosition) return asHeld(view)
  // three quarters to all of waitMs, at random: a drop's crowd is held together at the draw, and holds
  // of one length kept them asking again together, ten thousand at a time; and every answer is an ask
  // again, so the longer the holds the fewer the asks (half to all of 15 s: the shop's one process at
  // a full core, asks waiting seconds in the kernel; bench/drop.js)
  const holdMs = Math.ceil(waitMs * (0.75 + Math.random() * 0.25))
  return new Promise(resolve => {
    const room = roomOf(db, clock, dropId, onError)
    const held: Held = {
      userId,
      place,
      row: place.mine,
      allHeld: view.allHeld,
      answer: (v) => {
        clearTimeout(held.timer)
        if (!room.held.delete(held)) return
        room.early.delete(held)
        if (room.held.size === 0) closeRoom(db, dropId, room)
        // still in line: their next ask (at once) needs no read of their row
        if (v.state === 'waiting' && held.row.position !== null) rememberedOf(db, dropId).set(userId, held.row)
        resolve(v)
      },
      // nothing changed for them: the room as last seen, and ask again at once
      endsAt: Date.now() + holdMs,
      timer: setTimeout(() => held.answer(answerNow(held, room.look, clock())), holdMs)
    }
    room.held.add(held)
    if (held.row.position === null) room.early.add(held)
    // seen with an older look than the room's: checked at the next tick
    else if (room.look && Number(held.row.position) <= Number(room.look.d.queue_frontier)) room.recheck = true
    if (!held.allHeld) room.allHeldTold = false
  })
}

/**
 * A held caller's answer from the room as last looked at (their row unchanged: still waiting): ask again
 * at once, or, told that every box left is held (a whole room's worth told together), spread over a
 * second: it comes in a drop's last seconds, and a longer spread left them learning of the sell-out
 * seconds late (told sold out p50 3.5 s with 2-5 s, bench/drop.js).
 */
function answerNow (held: Held, look: RoomLook | null, now: number): QueueView {
  return asHeld(viewOf({ ...held.place, mine: held.row, look: look ?? held.place.look, now }))
}

/**
 * A held answer's pollMs: still in line, ask again at once, and be held again; told that every box left
 * is held, after a quarter to one and a quarter seconds (a whole room is told together); early, at once
 * (viewOf).
 */
function asHeld (view: QueueView): QueueView {
  // early (a window longer than the hold): ask again at once, held until the draw (dropQueue.ts)
  if (view.state !== 'waiting') return view
  return { ...view, pollMs: view.allHeld ? 250 + Math.floor(Math.random() * 1000) : 0 }
}

function roomOf (db: Db, clock: Clock, dropId: number, onError: (err: unknown) => void): Room {
  const map = roomsOf(db)
  let room = map.get(dropId)
  if (!room) {
    const r: Room = { held: new Set(), early: new Set(), checkedFrontier: -1, recheck: false, allHeldTold: false, ticking: false, look: null, nudged: false, lookedAt: 0, ticker: setInterval(() => { void r.tick() }, TICK_MS), tick: () => tick(db, clock, dropId, r).catch(onError) }
    // a held request keeps the process busy, not this timer
    r.ticker.unref?.()
    map.set(dropId, room = r)
  }
  return room
}

function closeRoom (db: Db, dropId: number, room: Room): void {
  clearInterval(room.ticker)
  const map = roomsOf(db)
  if (map.get(dropId) === room) map.delete(dropId)
}

/** One look at a room with held callers: its turn if due, then whoever it concerns is answered. */
async function tick (db: Db, clock: Clock, dropId: number, room: Room): Promise<void> {
  if (room.ticking || room.held.size === 0) return
  room.ticking = true
  room.lookedAt = Date.now()
  try {
    const now = clock()
    const before = await lookAtRoom(db, dropId, now)
    if (!before) return
    const look = (await takeTurn(db, clock, dropId, before, now)) ?? before
    room.look = look
    if (look.boxesLeft === 0) {
      // sold out: everyone held who was not just let in is told now (those about to be told that every
      // box was held included)
      inSlices([...room.held].filter(held => held.settled?.state !== 'shopping'), held => held.answer(answerNow(held, look, now)))
      return
    }
    // the order drawn: those held before it (no place yet) are told theirs now, front first, and ask
    // again over a span as long as their number needs (DRAW_RETURN_PER_S)
    if (look.d.queue_ordered_at !== null) {
      const early = [...room.early].filter(h => !h.settled)
      if (early.length > 0) {
        const byUser = await rowsOf(db, dropId, early.map(h => h.userId))
        const told = early.flatMap(held => {
          const mine = byUser.get(held.userId)
          if (!mine) return []
          held.row = mine
          return [{ held, view: viewOf({ ...held.place, look, mine, now }) }]
        }).sort((a, b) => shoppingLast(a.view) - shoppingLast(b.view) || Number(a.held.row.position ?? Infinity) - Number(b.held.row.position ?? Infinity))
        const spanMs = Math.min(DRAW_RETURN_MAX_MS, told.length * 1000 / DRAW_RETURN_PER_S)
        const tellingMs = told.length * DRAW_TELL_MS_EACH
        // the i-th is told about i/n of the telling after the draw, and asks again at the telling's end
        // plus its share of the span: pollMs counts from its own answer
        tellNow(told.map(({ held, view }, i) => ({
          held,
          view: view.state === 'waiting' ? { ...view, pollMs: Math.max(asHeld(view).pollMs, Math.floor(tellingMs * (1 - i / told.length) + i * spanMs / told.length)) } : view
        })), DRAW_SLICE)
      }
    }
    // those the frontier has passed: only when it has moved since the last check (a waiting place is
    // past the frontier when it is held)
    const frontier = Number(look.d.queue_frontier)
    const check = frontier !== room.checkedFrontier || room.recheck
    room.recheck = false
    const passed = !check ? [] : [...room.held].filter(h => !h.settled && h.row.position !== null && Number(h.row.position) <= frontier)
    if (passed.length > 0) {
      // a failed read is tried again at the next tick
      const byUser = await rowsOf(db, dropId, passed.map(h => h.userId)).catch(err => { room.recheck = true; throw err })
      const letIn: Array<{ held: Held; view: QueueView }> = []
      for (const held of passed) {
        const mine = byUser.get(held.userId)
        if (!mine) continue
        held.row = mine
        const view = viewOf({ ...held.place, look, mine, now })
        if (view.state !== 'waiting') letIn.push({ held, view })
      }
      spread(letIn)
    }
    room.checkedFrontier = frontier
    // every box left now held by someone shopping: those still in line who were not told so are told
    // now, with "notify me when restocked"; asking again, they are held until let in or sold out. (It
    // ceasing to be so is told at their next answer: at the end of a drop it flips with each purchase,
    // and a whole room's worth asking again on each flip saturated the process, bench/drop.js.)
    if (look.shopping < look.boxesLeft) room.allHeldTold = false
    else if (!room.allHeldTold) {
      room.allHeldTold = true
      spread([...room.held].filter(h => !h.settled && !h.allHeld).map(held => ({ held, view: answerNow(held, look, now) })))
    }
  } finally {
    room.ticking = false
  }
}

/**
 * Answers given spread over a tick, not all at once: those let in each go on to the case, the check and
 * the purchase, and a turn's worth of them arriving together queued behind one another; those told that
 * every box left is held (a whole room's worth) ask again. Each is settled now (`settled`): no later tick
 * answers it again, and closing answers it with this view.
 */
function spread (answers: Array<{ held: Held; view: QueueView }>, overMs = TICK_MS): void {
  const now = Date.now()
  answers.forEach(({ held, view }, i) => {
    held.settled = view
    clearTimeout(held.timer)
    // never past the end of their hold
    held.timer = setTimeout(() => held.answer(view), Math.max(0, Math.min(Math.floor(i * overMs / answers.length), held.endsAt - now)))
  })
}

/**
 * At the draw, those let in at once are told last: shopping, each goes on to the case, the check and the
 * purchase, and while the room was still telling the rest those calls waited behind its slices (half the
 * purchase calls over 200 ms were sent in the draw's two seconds, bench/drop.js).
 */
const shoppingLast = (view: QueueView): number => view.state === 'shopping' ? 1 : 0

/**
 * Answers given now, in slices (a draw tells a whole room); each is settled at once, so that a tick while
 * the slices go out does not answer it again.
 */
function tellNow (answers: Array<{ held: Held; view: QueueView }>, slice: number): void {
  for (const { held, view } of answers) {
    held.settled = view
    clearTimeout(held.timer)
  }
  inSlices(answers, ({ held, view }) => held.answer(view), slice)
}

/**
 * Does `each` for every item, SLICE at a time with the event loop let go between slices: a sell-out tells
 * a whole room at once (thousands), and in one go that held every other request (and the purchases of
 * those shopping) for a second (bench/drop.js: the shop's event-loop delay, max 1 s).
 */
const SLICE = 200
function inSlices<T> (items: T[], each: (item: T) => void, size = SLICE): void {
  const slice = (from: number) => {
    for (const item of items.slice(from, from + size)) each(item)
    if (from + size < items.length) setImmediate(slice, from + size)
  }
  slice(0)
}

/**
 * The room looked at now rather than at its next tick (a purchase from the drop in this process: it may
 * have let the next in line in, or sold the last box). Several at once make one look.
 */
export function nudgeRoom (db: Db, dropId: number): void {
  const room = rooms.get(db)?.get(dropId)
  if (!room || room.nudged) return
  room.nudged = true
  // a look goes over everyone held: at most one every NUDGE_MS (a drop sells dozens of times a second)
  setTimeout(() => {
    room.nudged = false
    void room.tick()
  }, Math.max(0, room.lookedAt + NUDGE_MS - Date.now()))
}

/** The rows of these callers in the room, by user, read a few hundred at a time. */
async function rowsOf (db: Db, dropId: number, userIds: number[]): Promise<Map<number, QueueRow>> {
  const ids = [...new Set(userIds)]
  const byUser = new Map<number, QueueRow>()
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db.selectFrom('drop_queue').selectAll().where('drop_id', '=', dropId).where('user_id', 'in', ids.slice(i, i + 500)).execute()
    for (const r of rows) byUser.set(Number(r.user_id), r)
  }
  return byUser
}

/** Answers every held caller of this database now (the server is closing): each asks again elsewhere. */
export function releaseHeld (db: Db, clock: Clock): void {
  const map = rooms.get(db)
  if (!map) return
  for (const room of [...map.values()]) {
    for (const held of [...room.held]) held.answer(held.settled ?? answerNow(held, room.look, clock()))
  }
}
