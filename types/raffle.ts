/**
 * Raffle drops (抽签购买, issue 51 item 4; docs/decisions/raffle.md). A drop may be sold by raffle instead
 * of first come, first served: shoppers enter from its start until `closesAt`, one entry per account
 * (a verified phone when the drop asks for one). Each entry gets a code; the list is the codes in
 * ascending order.
 *
 *   published with the drop:   seedHash = sha256_hex(seed)
 *   published at the close:    listHash = sha256_hex(`raffle:${dropId}:${codes in ascending order, joined by ','}`)
 *   round 1 winners:           fairPicks(seed, listHash, entries, places)                (types/fair.ts)
 *   round r > 1:               fairPicks(seed, `${listHash}:${r}`, entries not yet won, places unclaimed)
 *                              over the entries that have not won, in list order
 *
 * places = the drop's boxes / its boxes per account. Each winner may buy within claimMinutes of their
 * round's draw; the places of winners who bought nothing go to the next round (two rounds at most). After
 * the draw the seed is shown, and every entrant can check on the phone that their code is on the list and
 * that the winners were computed as published (types/raffleCheck.ts).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { Id, Nullable, Obj, StringEnum, Timestamp } from './schema'

/** Rounds a raffle draws at most: the first, and one for the places left unclaimed. */
export const RAFFLE_ROUNDS_MAX = 2
export const RAFFLE_LIMITS = { claimMinutesMin: 5, claimMinutesMax: 7 * 24 * 60, registerDaysMax: 30 } as const

export const RaffleSettings = Obj({
  /** Entries close (and the draw is made) at this time, after the drop's start. */
  closesAt: Timestamp,
  /** How long each winner has to buy after their round is drawn. */
  claimMinutes: Type.Integer({ minimum: RAFFLE_LIMITS.claimMinutesMin, maximum: RAFFLE_LIMITS.claimMinutesMax })
})
export type RaffleSettings = Static<typeof RaffleSettings>

/** A raffle drop as the series page shows it (DropInfo.raffle). */
export const RaffleInfo = Type.Object({
  closesAt: Timestamp,
  claimMinutes: Type.Integer(),
  /** Places: the drop's boxes over its boxes per account. */
  places: Type.Integer(),
  seedHash: Type.String()
})
export type RaffleInfo = Static<typeof RaffleInfo>

/**
 * The caller's side of a raffle:
 *  before  entries not open yet (the drop's start)     open   entries open
 *  closed  entries closed, not drawn yet               drawn  drawn (rounds so far)
 * mine: none (not entered), entered (not drawn, or waiting for a later round), won (may buy until
 * claimUntil), lost (no round left for them), expired (won and the time ran out).
 */
export const RaffleView = Type.Object({
  dropId: Type.Integer(),
  seriesId: Type.Integer(),
  state: StringEnum(['before', 'open', 'closed', 'drawn'] as const),
  opensAt: Timestamp,
  closesAt: Timestamp,
  claimMinutes: Type.Integer(),
  places: Type.Integer(),
  entries: Type.Integer(),
  rounds: Type.Integer(),
  seedHash: Type.String(),
  /** Shown once the first round is drawn. */
  seed: Nullable(Type.String()),
  listHash: Nullable(Type.String()),
  mine: StringEnum(['none', 'entered', 'won', 'lost', 'expired'] as const),
  myCode: Nullable(Type.String()),
  wonRound: Nullable(Type.Integer()),
  claimUntil: Nullable(Timestamp),
  /** Whether entering needs a verified phone. */
  needsPhone: Type.Boolean()
})
export type RaffleView = Static<typeof RaffleView>

/** Everything to recompute the draw: the list, and each round's winners (codes), once drawn. */
export const RaffleProof = Type.Object({
  dropId: Type.Integer(),
  places: Type.Integer(),
  seedHash: Type.String(),
  seed: Nullable(Type.String()),
  listHash: Nullable(Type.String()),
  /** Every entry's code, ascending (null until the close). */
  codes: Nullable(Type.Array(Type.String())),
  rounds: Type.Array(Type.Object({ round: Type.Integer(), places: Type.Integer(), winners: Type.Array(Type.String()) }))
})
export type RaffleProof = Static<typeof RaffleProof>

export const RaffleRequest = Obj({ dropId: Id })
export type RaffleRequest = Static<typeof RaffleRequest>

export const raffleRoutes = {
  enter: route({
    method: 'POST', url: '/api/raffleEnter', auth: 'user', tag: 'cases', body: RaffleRequest, data: RaffleView,
    summary: 'Enter a raffle drop (once per account; idempotent)',
    description: '409 outside the entry window or for a drop without a raffle; 409 drop.needPhone when the drop asks for a verified phone the account lacks.'
  }),
  status: route({
    method: 'POST', url: '/api/raffleStatus', auth: 'optional', tag: 'cases', body: RaffleRequest, data: RaffleView,
    summary: 'A raffle drop\'s state and the caller\'s entry and result (the draw is made by the first call after the close)'
  }),
  proof: route({
    method: 'POST', url: '/api/raffleProof', auth: 'none', tag: 'cases', body: RaffleRequest, data: RaffleProof,
    summary: 'A raffle\'s seed hash; after the close the list of codes and its hash; after each round its winners and the seed'
  })
}
