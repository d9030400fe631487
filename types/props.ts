/**
 * Props (issue 9, PRODUCT.md "Props"): shakes (free, 3 a day) and hint cards show a design a chosen
 * unsold slot is NOT; an X-ray card shows the design it IS and holds the slot for its user for 10
 * minutes. Cards are bought with credit or cash through the ledger, and earned (a whole-case purchase
 * gives an X-ray card). What a prop shows is always true: the reveal at sell-out proves it.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { CASE_SIZE_MAX, IDEMPOTENCY_KEY_PATTERN, PROP_LIMITS } from './limits'
import { Cents, EmptyBody, Id, Nullable, Obj, PageFields, PageResult, StringEnum, Timestamp } from './schema'
import { DesignInfo, WalletBalance } from './shop'

export { PROP_LIMITS } from './limits'

export const PropCard = StringEnum(['hint', 'xray'] as const)
export type PropCard = Static<typeof PropCard>
export const PropKind = StringEnum(['shake', 'hint', 'xray'] as const)
export type PropKind = Static<typeof PropKind>

export const Reservation = Type.Object({ caseId: Type.Integer(), slot: Type.Integer(), expiresAt: Timestamp })
export type Reservation = Static<typeof Reservation>

export const PropsState = Type.Object({
  cards: Type.Object({ hint: Type.Integer({ minimum: 0 }), xray: Type.Integer({ minimum: 0 }) }),
  shakesLeft: Type.Integer({ minimum: 0 }),
  shakesPerDay: Type.Integer(),
  prices: Type.Object({ hint: Cents, xray: Cents }),
  /** The caller's live X-ray holds. */
  reservations: Type.Array(Reservation)
})
export type PropsState = Static<typeof PropsState>

export const PropBuyRequest = Obj({
  kind: PropCard,
  quantity: Type.Integer({ minimum: 1, maximum: PROP_LIMITS.buyMax }),
  /** credit or cash (either alone pays; nothing is split). */
  pay: StringEnum(['credit', 'cash'] as const),
  idempotencyKey: Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN })
})
export type PropBuyRequest = Static<typeof PropBuyRequest>
export const PropBuyResult = Type.Object({ state: PropsState, balance: WalletBalance, paidCents: Cents })
export type PropBuyResult = Static<typeof PropBuyResult>

const Slot = Type.Integer({ minimum: 1, maximum: CASE_SIZE_MAX })

export const PropUseRequest = Obj({ kind: PropKind, caseId: Id, slot: Slot, idempotencyKey: Type.String({ pattern: IDEMPOTENCY_KEY_PATTERN }) })
export type PropUseRequest = Static<typeof PropUseRequest>

export const PropShown = Type.Object({
  kind: PropKind,
  caseId: Type.Integer(),
  slot: Type.Integer(),
  design: DesignInfo,
  /** true: the slot is NOT this design (shake, hint); false: it IS (X-ray). */
  isNot: Type.Boolean(),
  /** X-ray: the slot is held for the caller until then. */
  reservedUntil: Nullable(Timestamp),
  at: Timestamp
})
export type PropShown = Static<typeof PropShown>

export const PropUseResult = Type.Object({ shown: PropShown, state: PropsState })
export type PropUseResult = Static<typeof PropUseResult>

export const CaseHintsRequest = Obj({ caseId: Id })
export const PropHistoryRequest = Obj({ ...PageFields })

const tag = 'props'
export const propRoutes = {
  state: route({ method: 'POST', url: '/api/props', auth: 'user', tag, body: EmptyBody, data: PropsState, summary: 'Cards held, shakes left today, prices, live X-ray holds' }),
  buy: route({
    method: 'POST', url: '/api/propBuy', auth: 'user', tag, body: PropBuyRequest, data: PropBuyResult,
    summary: 'Buy cards with credit or cash (ledger prop_purchase)', description: '422 with InsufficientBalanceData when the chosen balance does not cover it; a replay of the key answers the first result.'
  }),
  use: route({
    method: 'POST', url: '/api/propUse', auth: 'user', tag, body: PropUseRequest, data: PropUseResult,
    summary: 'Use a shake, a hint card or an X-ray card on an unsold slot',
    description: '409 when the slot is sold or held by someone else, or a hint card was used on it already; 422 without a card; 429 without shakes left today.'
  }),
  caseHints: route({ method: 'POST', url: '/api/caseHints', auth: 'user', tag, body: CaseHintsRequest, data: Type.Array(PropShown), summary: 'What props showed the caller about a case' }),
  history: route({ method: 'POST', url: '/api/propHistory', auth: 'user', tag, body: PropHistoryRequest, data: PageResult(PropShown), summary: 'Every prop the caller used, newest first' })
}
