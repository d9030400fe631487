/**
 * Drops (issue 50; docs/decisions/drops.md): a limited run of a series. Every case of a drop is made,
 * shuffled and committed when the operator creates it, exactly `hiddenCases` of its `cases` carry the
 * hidden design, and one root commitment over the cases' commitments is published before the sale:
 *
 *   root = sha256_hex(`drop:${dropId}:${case commitments in ascending case id, joined by ','}`)
 *
 * So the shop cannot add, remove or swap a case once the root is shown. When the drop has sold out,
 * every case is revealed and the device recomputes each case's commitment, the root over them, and the
 * count of cases that held the hidden design (types/dropCheck.ts: the same code on the server and phone).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { DROP_LIMITS } from './limits'
import { Id, Nullable, Obj, StringEnum, Timestamp } from './schema'
import { CaseProof, DropInfo } from './shopParts/catalogue'
import { RaffleSettings } from './raffle'

export { DropInfo, DropStatus } from './shopParts/catalogue'

export const DropProof = Type.Object({
  ...DropInfo.properties,
  /** The series' hidden design (null: the series has none). */
  hiddenDesignId: Nullable(Type.Integer()),
  /** Every case of the drop, ascending by id: commitments always, arrangements once revealed. */
  caseProofs: Type.Array(CaseProof)
})
export type DropProof = Static<typeof DropProof>

// ---- the operator's drop screen ----------------------------------------------------------------------

export const WaitingRoomSettings = Obj({
  /** Arrivals before the start and in these first seconds are put in a random order. */
  windowSeconds: Type.Integer({ minimum: 0, maximum: DROP_LIMITS.windowSecondsMax }),
  shoppersAtOnce: Type.Integer({ minimum: 1, maximum: DROP_LIMITS.shoppersAtOnceMax }),
  minutesEach: Type.Integer({ minimum: 1, maximum: DROP_LIMITS.minutesEachMax })
})
export type WaitingRoomSettings = Static<typeof WaitingRoomSettings>

export const DropLimitsSettings = Obj({
  /** The most boxes one account may buy in the drop. */
  boxesPerAccount: Type.Optional(Type.Integer({ minimum: 1, maximum: DROP_LIMITS.boxesPerAccountMax })),
  /** The most whole cases one account may buy in the drop. */
  casesPerAccount: Type.Optional(Type.Integer({ minimum: 1, maximum: DROP_LIMITS.casesPerAccountMax })),
  /** Only accounts with a verified phone may buy. */
  verifiedPhone: Type.Optional(Type.Boolean()),
  /** Only accounts at least this many hours old may buy. */
  accountHoursMin: Type.Optional(Type.Integer({ minimum: 1, maximum: DROP_LIMITS.accountHoursMax }))
})
export type DropLimitsSettings = Static<typeof DropLimitsSettings>

export const DropCreateRequest = Obj({
  seriesId: Id,
  /** Limits per account; absent: none. */
  limits: Type.Optional(DropLimitsSettings),
  /** A waiting room; absent: first come, first served. */
  waitingRoom: Type.Optional(WaitingRoomSettings),
  /**
   * Sold by raffle instead (types/raffle.ts): entries open at startsAt and close at closesAt, then the
   * winners may buy. Needs limits.boxesPerAccount (the places are the boxes over it); not with a waiting room.
   */
  raffle: Type.Optional(RaffleSettings),
  cases: Type.Integer({ minimum: 1, maximum: DROP_LIMITS.casesMax }),
  /** Exactly how many cases carry the hidden design (0 when the series has none). */
  hiddenCases: Type.Integer({ minimum: 0, maximum: DROP_LIMITS.casesMax }),
  /** When the sale starts: now or later, at most DROP_LIMITS.startsAheadMaxDays ahead. */
  startsAt: Timestamp
})
export type DropCreateRequest = Static<typeof DropCreateRequest>

export const SeriesDrops = Type.Object({
  seriesId: Type.Integer(),
  /** The series' drops, newest first. */
  drops: Type.Array(DropInfo),
  /** The most cases a new drop can have: the free stock, with what the open cases made on demand hold (a drop retires them). */
  casesFillable: Type.Integer(),
  /** The hidden figures free (the most hidden cases a new drop can have). */
  hiddenFree: Type.Integer(),
  /** Whether the series has a hidden design. */
  hasHidden: Type.Boolean()
})
export type SeriesDrops = Static<typeof SeriesDrops>

export const DropIdRequest = Obj({ dropId: Id })
/** The longest a waiting room's answer is held (QueueRequest.waitMs). */
export const QUEUE_HOLD_MAX_MS = 30000
/**
 * Joining a room, or asking one's place again. waitMs: while the caller is waiting in line, the server
 * may hold the answer up to this long, and answers at once when they are let in or the drop sells out
 * (a long poll: thousands in line cost no request each every few seconds, and all of them learn of a
 * sell-out within a second).
 */
export const QueueRequest = Obj({
  dropId: Id,
  waitMs: Type.Optional(Type.Integer({ minimum: 0, maximum: QUEUE_HOLD_MAX_MS })),
  /**
   * With waitMs: the place the caller was last told (null: none yet, early). A caller whose place is not
   * that one is answered at once (given a place since their last answer, they see it), not held.
   */
  seenPosition: Type.Optional(Nullable(Type.Integer({ minimum: 1 })))
})
export type QueueRequest = Static<typeof QueueRequest>

/**
 * A shopper's place in a drop's waiting room (POST /api/dropQueue joins it and answers this):
 *  early     joined before the order is drawn (the start plus the window): no place yet
 *  waiting   a place, with how many are ahead and a wait estimate
 *  shopping  let in, until shoppingUntil: the case call and purchases are open to them
 *  left      their time ran out (they may join again at the back)
 *  sold_out  nothing left to wait for
 */
export const QueueState = StringEnum(['early', 'waiting', 'shopping', 'left', 'sold_out'] as const)
export const QueueView = Type.Object({
  dropId: Type.Integer(),
  state: QueueState,
  position: Nullable(Type.Integer()),
  ahead: Nullable(Type.Integer()),
  /** At most about this long (seconds) until they are let in, from the room's settings. */
  waitSeconds: Nullable(Type.Integer()),
  shoppingUntil: Nullable(Timestamp),
  /**
   * Each shopper's time once let in (seconds, the room's setting): the page's countdown to shoppingUntil
   * never shows more, whatever its estimate of the server's clock.
   */
  turnSeconds: Type.Integer({ minimum: 1 }),
  startsAt: Timestamp,
  /** When the window closes and the early arrivals are put in order. */
  orderAt: Timestamp,
  /** Their lot, the seed's hash (published with the drop) and the seed once the order is drawn. */
  lot: Type.String(),
  seedHash: Type.String(),
  seed: Nullable(Type.String()),
  boxesLeft: Type.Integer(),
  /** Everyone shopping now could take every box left: those waiting may still get one if they do not. */
  allHeld: Type.Boolean(),
  /**
   * Ask again after this long (milliseconds). Early: after the draw, the sooner the lower the lot (the
   * front of the line first). 0 after a held answer in line: the next ask is held again.
   */
  pollMs: Type.Integer()
})
export type QueueView = Static<typeof QueueView>
export const DropSeriesRequest = Obj({ seriesId: Id })

export const dropRoutes = {
  queue: route({
    method: 'POST', url: '/api/dropQueue', auth: 'user', tag: 'cases', body: QueueRequest, data: QueueView,
    summary: 'Join a drop\'s waiting room (once per account) and see one\'s place',
    description: 'Idempotent: every device of an account holds the one place. 409 when the drop has no waiting room. Ask again after pollMs. With waitMs, a caller waiting in line (or there before the order is drawn) is answered when given a place, when let in, when every box left comes to be held, when the drop sells out, or within waitMs (after three quarters of it at least, at random) with pollMs 0, whichever comes first. A caller in line whose place is not seenPosition is answered at once.'
  }),
  proof: route({
    method: 'POST', url: '/api/dropProof', auth: 'none', tag: 'cases', body: DropIdRequest, data: DropProof,
    summary: 'A drop\'s root commitment and its cases\' commitments; arrangements and salts once revealed'
  }),
  list: route({
    method: 'POST', url: '/api/operator/drops', auth: 'operator', tag: 'operator', body: DropSeriesRequest, data: SeriesDrops,
    summary: 'The drops of a series, and how large a new one the warehouse can fill'
  }),
  create: route({
    method: 'POST', url: '/api/operator/dropCreate', auth: 'operator', tag: 'operator', body: DropCreateRequest, data: DropInfo,
    summary: 'Make a drop: every case made, shuffled and committed now, and the root published (audited)',
    description: 'The series must be on sale with no drop still selling (409). Each regular and rare design needs a free figure per case, the hidden design one per hidden case (422 naming cases or hiddenCases). Open cases made on demand are retired and revealed: from now on the series sells only from drops.'
  })
}
