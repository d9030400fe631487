/**
 * Held answers of a drop's waiting room: POST /api/dropQueue with waitMs (a long poll; issue 50 item 8,
 * docs/decisions/drop-queue.md). At a drop thousands wait in line; asking every 2-5 s each, they cost the
 * database thousands of requests a second, and a shopper far back learned of a sell-out up to 5 s late.
 * A caller waiting in line (state 'waiting'), or there before the order is drawn ('early'), is instead
 * answered:
 *  - an early one, when the order is drawn (with their place), spread over two ticks;
 *  - at once when they are let in, when the drop sells out (no box left), and when every box left comes
 *    to be held by shoppers let in;
 *  - otherwise after half to all of waitMs (at random), with the room as last seen and pollMs 0 (ask
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

interface Held { userId: number; place: Place; allHeld: boolean; answer: (view: QueueView) => void; timer: ReturnType<typeof setTimeout>; /** The answer it is about to be given (spread): no later tick answers it again. */ settled?: QueueView }
interface Room { held: Set<Held>; ticker: ReturnType<typeof setInterval>; ticking: boolean; look: RoomLook | null }

/** Per database handle (tests run several shops in one process), per drop. */
const rooms = new WeakMap<object, Map<number, Room>>()

function roomsOf (db: Db): Map<number, Room> {
  let map = rooms.get(db)
  if (!map) rooms.set(db, map = new Map())
  return map
}

/**
 * POST /api/dropQueue: the caller's place; with waitMs > 0 and the caller waiting in line (or early),
 * held until it changes (a place, let in, every box held, sold out) or most of waitMs passes. `onError` hears a failed look at the room (the held
 * answers then wait for the next tick, or their time).
 */
export async function queueAnswer (db: Db, clock: Clock, dropId: number, userId: number, waitMs: number, onError: (err: unknown) => void): Promise<QueueView> {
  const place = await takePlace(db, clock, dropId, userId)
  const view = viewOf(place)
  if (waitMs <= 0 || (view.state !== 'waiting' && view.state !== 'early')) return view
  return new Promise(resolve => {
    const room = roomOf(db, clock, dropId, onError)
    const held: Held = {
      userId,
      place,
      allHeld: view.allHeld,
      answer: (v) => {
        clearTimeout(held.timer)
        if (!room.held.delete(held)) return
        if (room.held.size === 0) closeRoom(db, dropId, room)
        resolve(v)
      },
      // nothing changed for them: the room as last seen, and ask again at once. Held for half to all of
      // waitMs, at random: a drop's crowd is held together at the draw, and holds of one length kept them
      // asking again together, ten thousand at a time (bench/drop.js)
      timer: setTimeout(() => held.answer(answerNow(held, room.look, clock())), Math.ceil(waitMs * (0.5 + Math.random() * 0.5)))
    }
    room.held.add(held)
  })
}

/**
 * A held caller's answer from the room as last looked at (their row unchanged: still waiting): ask again
 * at once, or, told that every box left is held (a whole room's worth told together), spread over a
 * second: it comes in a drop's last seconds, and a longer spread left them learning of the sell-out
 * seconds late (told sold out p50 3.5 s with 2-5 s, bench/drop.js).
 */
function answerNow (held: Held, look: RoomLook | null, now: number): QueueView {
  const view = viewOf({ ...held.place, look: look ?? held.place.look, now })
  if (view.state === 'early') return { ...view, pollMs: 0 }
  if (view.state !== 'waiting') return view
  return { ...view, pollMs: view.allHeld ? 250 + Math.floor(Math.random() * 1000) : 0 }
}

function roomOf (db: Db, clock: Clock, dropId: number, onError: (err: unknown) => void): Room {
  const map = roomsOf(db)
  let room = map.get(dropId)
  if (!room) {
    const r: Room = { held: new Set(), ticking: false, look: null, ticker: setInterval(() => { void tick(db, clock, dropId, r).catch(onError) }, TICK_MS) }
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
  try {
    const now = clock()
    const before = await lookAtRoom(db, dropId, now)
    if (!before) return
    const look = (await takeTurn(db, clock, dropId, before, now)) ?? before
    room.look = look
    if (look.boxesLeft === 0) {
      // sold out: everyone held who was not just let in is told now (those about to be told that every
      // box was held included)
      for (const held of [...room.held]) if (held.settled?.state !== 'shopping') held.answer(answerNow(held, look, now))
      return
    }
    // the order drawn: those held before it (no place yet) are given theirs, spread over two ticks (a
    // drop's early arrivals are most of its crowd); they ask again as their answer says (pollMs)
    if (look.d.queue_ordered_at !== null) {
      const early = [...room.held].filter(h => !h.settled && h.place.mine.position === null)
      if (early.length > 0) {
        const byUser = await rowsOf(db, dropId, early.map(h => h.userId))
        spread(early.flatMap(held => {
          const mine = byUser.get(held.userId)
          return mine ? [{ held, view: viewOf({ ...held.place, look, mine, now }) }] : []
        }), 2 * TICK_MS)
      }
    }
    const frontier = Number(look.d.queue_frontier)
    const passed = [...room.held].filter(h => !h.settled && h.place.mine.position !== null && Number(h.place.mine.position) <= frontier)
    if (passed.length > 0) {
      const byUser = await rowsOf(db, dropId, passed.map(h => h.userId))
      const letIn: Array<{ held: Held; view: QueueView }> = []
      for (const held of passed) {
        const mine = byUser.get(held.userId)
        if (!mine) continue
        const view = viewOf({ ...held.place, look, mine, now })
        if (view.state !== 'waiting') letIn.push({ held, view })
      }
      spread(letIn)
    }
    // every box left now held by someone shopping: those still in line who were not told so are told
    // now, with "notify me when restocked"; asking again, they are held until let in or sold out. (It
    // ceasing to be so is told at their next answer: at the end of a drop it flips with each purchase,
    // and a whole room's worth asking again on each flip saturated the process, bench/drop.js.)
    if (look.shopping >= look.boxesLeft) {
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
  answers.forEach(({ held, view }, i) => {
    held.settled = view
    clearTimeout(held.timer)
    held.timer = setTimeout(() => held.answer(view), Math.floor(i * overMs / answers.length))
  })
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
