/**
 * 一番赏 (ichiban kuji) series (issue 51; docs/decisions/kuji.md). A kuji series sells sets of tickets:
 * each set holds every tier design as many times as its ticket count, shuffled, and the Last One prize
 * after the last ticket. A set is made and committed like a case (one case row, one slot a ticket, the
 * Last One in the slot after the last ticket):
 *
 *   commit = sha256_hex(`${setId}:${design ids of tickets 1..N, then the Last One's, joined by ','}:${salt}`)
 *
 * Everyone shares the set on sale, one shopper drawing at a time: a turn of the series' turnSeconds, the
 * others in line in order of arrival. The buyer of the final ticket is given the Last One in the same
 * transaction. Once the set is sold out its arrangement and salt are revealed and the phone recomputes
 * the commitment (types/kujiCheck.ts).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { KUJI_DOUBLE_CHANCE_MAX } from './limits'
import { Id, Nullable, Obj, StringEnum, Timestamp } from './schema'
import { CaseProof, DesignInfo } from './shopParts/catalogue'
import { I18nText } from './shopParts/basics'

export { KUJI_DOUBLE_CHANCE_MAX, KUJI_TICKETS_MAX } from './limits'
/** A tier's letter, the Last One, or the Double Chance prize. */
export const KUJI_LAST_ONE = 'last_one'
export const KUJI_DOUBLE_CHANCE = 'double_chance'
export const KUJI_TIER_PATTERN = '^([A-Z]|last_one|double_chance)$'
/** A turn at a set: the operator's choice within these (seconds), 60 unless set. */
export const KUJI_TURN = { minSeconds: 20, maxSeconds: 300, defaultSeconds: 60 } as const
/** Draws a shopper may make in one go (or every ticket left). */
export const KUJI_DRAW_COUNTS = [1, 3, 5, 10] as const
/** Recent draws shown on the board. */
export const KUJI_RECENT_MAX = 20

export const KujiTier = Type.String({ pattern: KUJI_TIER_PATTERN, description: "A tier's letter A..Z, last_one for the Last One prize, or double_chance for the Double Chance prize" })
export const KujiDoubleChanceWinners = Type.Integer({ minimum: 0, maximum: KUJI_DOUBLE_CHANCE_MAX })

export const KujiTierRow = Type.Object({
  /** 'A'..'Z'. */
  tier: Type.String(),
  designs: Type.Array(DesignInfo),
  /** Tickets of the tier in a whole set, and unsold in this set. */
  tickets: Type.Integer(),
  left: Type.Integer()
})
export type KujiTierRow = Static<typeof KujiTierRow>

/** A ticket of the set: sold ones show what they held (it is the buyer's prize, shown on the board). */
export const KujiTicket = Type.Object({
  ticket: Type.Integer({ minimum: 1 }),
  sold: Type.Boolean(),
  /** Sold: the tier it held; unsold: null. */
  tier: Nullable(Type.String()),
  /** Bought by the caller. */
  mine: Type.Boolean()
})
export type KujiTicket = Static<typeof KujiTicket>

/** A draw made at this series lately: a masked name, real draws only. */
export const KujiDraw = Type.Object({
  name: Type.String(),
  tier: Type.String(),
  design: I18nText,
  ticket: Type.Integer(),
  at: Timestamp
})
export type KujiDraw = Static<typeof KujiDraw>

/**
 * The caller's place at the series' set:
 *  none      not in line
 *  waiting   in line: position, how many are ahead, an upper bound on the wait
 *  drawing   their turn, until `until`: they may draw
 */
export const KujiTurnState = StringEnum(['none', 'waiting', 'drawing'] as const)
export const KujiTurn = Type.Object({
  state: KujiTurnState,
  ahead: Nullable(Type.Integer()),
  /** At most about this long until their turn (seconds). */
  waitSeconds: Nullable(Type.Integer()),
  until: Nullable(Timestamp),
  turnSeconds: Type.Integer(),
  /** How many are in line now (drawing included). */
  inLine: Type.Integer(),
  /** Ask again after this long (milliseconds). */
  pollMs: Type.Integer()
})
export type KujiTurn = Static<typeof KujiTurn>

export const KujiBoard = Type.Object({
  seriesId: Type.Integer(),
  /** The set on sale (a case id) and its number in the series (1 for the first set). */
  setId: Type.Integer(),
  setNumber: Type.Integer(),
  commit: Type.String(),
  priceCents: Type.Integer(),
  ticketCount: Type.Integer(),
  ticketsLeft: Type.Integer(),
  tiers: Type.Array(KujiTierRow),
  lastOne: DesignInfo,
  tickets: Type.Array(KujiTicket),
  /**
   * The Double Chance (null: the series has none): when the set sells out, `winners` of its tickets are
   * drawn and each one's buyer gets the prize. The seed's hash is published with the set.
   */
  doubleChance: Nullable(Type.Object({ prize: DesignInfo, winners: Type.Integer(), seedHash: Type.String() })),
  recent: Type.Array(KujiDraw),
  turn: KujiTurn,
  /** The set before this one, sold out and revealed (its proof), for the verify view; null for the first set. */
  previousSetId: Nullable(Type.Integer())
})
export type KujiBoard = Static<typeof KujiBoard>

export const KujiSeriesRequest = Obj({ seriesId: Id })
export type KujiSeriesRequest = Static<typeof KujiSeriesRequest>
export const KujiTurnRequest = Obj({
  seriesId: Id,
  /** join: take a place in line (idempotent per account); leave: give it up (a turn ends at once). */
  action: StringEnum(['join', 'leave'] as const)
})
export type KujiTurnRequest = Static<typeof KujiTurnRequest>
export const KujiSetRequest = Obj({ setId: Id })

/** A set's proof: the commitment; once sold out, the arrangement (the Last One last) and salt. */
export const KujiSetProof = Type.Object({
  ...CaseProof.properties,
  ticketCount: Type.Integer(),
  /** Each design's tier, to name what each ticket held. */
  tiers: Type.Array(Type.Object({ designId: Type.Integer(), tier: Type.String(), name: I18nText })),
  /** Who won the Last One (a masked name), once the set is sold out. */
  lastOneWinner: Nullable(Type.String()),
  /**
   * The Double Chance draw (null: none). Published with the set: the seed's hash. At sell-out: the list
   * (each ticket with the purchase that bought it, ticket order), its hash, the seed, and the winning
   * tickets: types/kujiCheck.ts recomputes them (fairPicks over the list, types/fair.ts).
   */
  doubleChance: Nullable(Type.Object({
    winners: Type.Integer(),
    seedHash: Type.String(),
    seed: Nullable(Type.String()),
    entries: Nullable(Type.Array(Type.Object({ ticket: Type.Integer(), purchaseId: Type.Integer() }))),
    listHash: Nullable(Type.String()),
    winningTickets: Nullable(Type.Array(Type.Integer()))
  }))
})
export type KujiSetProof = Static<typeof KujiSetProof>

export const kujiRoutes = {
  board: route({
    method: 'POST', url: '/api/kujiBoard', auth: 'optional', tag: 'cases', body: KujiSeriesRequest, data: KujiBoard,
    summary: 'A kuji series\' set on sale: tickets left by tier, the Last One, recent draws, the caller\'s turn',
    description: '404 for a series that is not a kuji series on sale; 409 series.soldOut when no set is left and the warehouse cannot fill another. A sold ticket shows the tier it held.'
  }),
  turn: route({
    method: 'POST', url: '/api/kujiTurn', auth: 'user', tag: 'cases', body: KujiTurnRequest, data: KujiTurn,
    summary: 'Take (or give up) a place in a kuji series\' line: one shopper draws at a time, for the series\' turn',
    description: 'Idempotent per account: every device holds the one place. Draws are purchases of the set\'s tickets (POST /api/casePurchase with the set as caseId) and are refused (409 kuji.notYourTurn) outside the caller\'s turn.'
  }),
  proof: route({
    method: 'POST', url: '/api/kujiProof', auth: 'none', tag: 'cases', body: KujiSetRequest, data: KujiSetProof,
    summary: 'A kuji set\'s commitment; its arrangement (ticket to tier, the Last One last) and salt once sold out'
  })
}
