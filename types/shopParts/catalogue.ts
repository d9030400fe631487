/**
 * The catalogue (series, designs, theme tags, the series search) and the cases with their proofs.
 */
import { Type, type Static } from 'typebox'
import { MAX_BOX_PRICE_CENTS, SERIES_SEARCH } from '../limits'
import { Cents, Id, Nullable, Obj, PageFields, PageResult, StringEnum, Text, Timestamp } from '../schema'
import { Ppm, SlotNumber } from './shared'
import { I18nText, Rarity } from './basics'

// ---- catalogue ------------------------------------------------------------------------------------

export const SeriesStatus = StringEnum(['on_sale', 'retired'] as const)
export const SeriesSummary = Type.Object({
  id: Type.Integer(),
  title: I18nText,
  description: I18nText,
  cover: Type.String({ description: 'A path like /media/art/1f381.webp, or an absolute URL' }),
  priceCents: Cents,
  caseSize: Type.Integer(),
  designCount: Type.Integer(),
  /** Chance per box of each rarity. */
  oddsPpm: Type.Object({ regular: Ppm, rare: Ppm, hidden: Ppm }),
  status: SeriesStatus,
  /** case: blind-box cases; kuji: 一番赏 sets of tickets in tiers with a Last One prize (types/kuji.ts). */
  kind: StringEnum(['case', 'kuji'] as const),
  /** On sale, but every box the warehouse holds is sold: shown as 已售罄 / Sold out, nothing can be bought. */
  soldOut: Type.Boolean()
})
export type SeriesSummary = Static<typeof SeriesSummary>

export const DesignInfo = Type.Object({
  id: Type.Integer(),
  name: I18nText,
  image: Type.String(),
  /** The picture described, for a screen reader (absent until the operator wrote it: the name serves). */
  alt: Type.Optional(I18nText),
  rarity: Rarity,
  referenceValueCents: Cents,
  recycleValueCents: Cents,
  /** Chance that one box holds this design (a kuji ticket: tickets of it over tickets in a set; the Last One: 0). */
  oddsPpm: Ppm,
  /** A kuji design: its tier ('A'..'Z', or 'last_one' for the Last One prize) and its tickets in a set. */
  tier: Type.Optional(Type.String()),
  tickets: Type.Optional(Type.Integer({ minimum: 0 }))
})
export type DesignInfo = Static<typeof DesignInfo>

// ---- drops (types/drop.ts) ----

/** scheduled: before the start; on_sale: selling; sold_out: every case sold (all revealed); ended: retired with cases unsold. */
export const DropStatus = StringEnum(['scheduled', 'on_sale', 'sold_out', 'ended'] as const)
export type DropStatus = Static<typeof DropStatus>

/** What a shopper sees of a series' drop: its size and exact hidden count, the root, what is left. */
export const DropInfo = Type.Object({
  dropId: Type.Integer(),
  seriesId: Type.Integer(),
  status: DropStatus,
  startsAt: Timestamp,
  /** Cases in the drop, and exactly how many of them carry the hidden design. */
  cases: Type.Integer(),
  hiddenCases: Type.Integer(),
  boxes: Type.Integer(),
  /** Cases with a box still unsold, and the boxes unsold. */
  casesLeft: Type.Integer(),
  boxesLeft: Type.Integer(),
  /** The root commitment over the cases' commitments (hex), published before the sale. */
  root: Type.String(),
  /**
   * The waiting room (null: first come, first served): arrivals before the start and in its first
   * windowSeconds are put in order by their lots, HMAC-SHA256(seed, `${dropId}:${userId}`), the seed's
   * hash published here before the sale; shoppersAtOnce shop at a time, minutesEach each.
   */
  waitingRoom: Nullable(Type.Object({
    windowSeconds: Type.Integer(),
    shoppersAtOnce: Type.Integer(),
    minutesEach: Type.Integer(),
    seedHash: Type.String()
  })),
  /**
   * Sold by raffle (null: not): entries from the start until closesAt, one per account; places winners
   * may buy within claimMinutes of their round's draw; the seed's hash published here before the sale
   * (types/raffle.ts).
   */
  raffle: Nullable(Type.Object({ closesAt: Timestamp, claimMinutes: Type.Integer(), places: Type.Integer(), seedHash: Type.String() })),
  /** Limits per account (null values: none). */
  limits: Type.Object({
    boxesPerAccount: Nullable(Type.Integer()),
    casesPerAccount: Nullable(Type.Integer()),
    verifiedPhone: Type.Boolean(),
    accountHoursMin: Nullable(Type.Integer())
  })
})
export type DropInfo = Static<typeof DropInfo>

export const SeriesDetail = Type.Object({
  ...SeriesSummary.properties,
  designs: Type.Array(DesignInfo),
  /** Chance that a case carries the hidden design. */
  hiddenCasePpm: Ppm,
  /** Reference values of the cheapest and dearest design a box can hold. */
  valueRange: Type.Object({ minCents: Cents, maxCents: Cents }),
  rules: I18nText,
  /** The series' latest drop (types/drop.ts), null when it sells without drops. */
  drop: Nullable(DropInfo)
})
export type SeriesDetail = Static<typeof SeriesDetail>

/** A theme tag operators give series (both languages), a filter on home. */
export const ThemeTag = Type.Object({ id: Type.Integer(), name: I18nText })
export type ThemeTag = Static<typeof ThemeTag>

export const SERIES_SORTS = ['new', 'popular', 'price_asc', 'price_desc'] as const
export const SeriesSort = StringEnum(SERIES_SORTS, {
  description: `new: newest first; popular: most boxes sold in the last ${SERIES_SEARCH.popularDays} days; price_asc / price_desc: by the price of a box`
})
export type SeriesSort = Static<typeof SeriesSort>
const BoxPrice = Type.Integer({ minimum: 0, maximum: MAX_BOX_PRICE_CENTS })
const SearchText = Text({ minLength: 1, maxLength: SERIES_SEARCH.queryMax, description: 'Matched in the zh and en titles after NFKC, case folding and dropping spaces' })

/**
 * Without any of q, the filters and sort: every published series, on sale first, oldest first. With
 * any: the same shelf order (on sale first), then the chosen sort (newest first when none).
 */
export const SeriesListRequest = Obj({
  ...PageFields,
  q: Type.Optional(SearchText),
  priceMinCents: Type.Optional(BoxPrice),
  priceMaxCents: Type.Optional(BoxPrice),
  /** Series that have designs of this rarity. */
  rarity: Type.Optional(Rarity),
  /** Series carrying any of these tags. */
  tagIds: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: SERIES_SEARCH.tagFilterMax, uniqueItems: true })),
  /** true: series with a hidden design; false: series without. */
  hasHidden: Type.Optional(Type.Boolean()),
  sort: Type.Optional(SeriesSort)
})
export type SeriesListRequest = Static<typeof SeriesListRequest>
export const SeriesListResponse = Type.Object({
  ...PageResult(SeriesSummary).properties,
  /** On page 1: the theme tags of published series, for the filter. */
  tags: Type.Optional(Type.Array(ThemeTag))
})
export type SeriesListResponse = Static<typeof SeriesListResponse>
export const SeriesSuggestRequest = Obj({ q: SearchText })
export type SeriesSuggestRequest = Static<typeof SeriesSuggestRequest>
export const SeriesSuggestion = Type.Object({ id: Type.Integer(), title: I18nText })
export type SeriesSuggestion = Static<typeof SeriesSuggestion>
export const SeriesIdRequest = Obj({ seriesId: Id })
export type SeriesIdRequest = Static<typeof SeriesIdRequest>

// ---- cases ----------------------------------------------------------------------------------------

export const SlotView = Type.Object({ slot: SlotNumber, sold: Type.Boolean() })
export type SlotView = Static<typeof SlotView>

export const CaseView = Type.Object({
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  // eslint-disable-next-line no-template-curly-in-string -- documents the committed string's format
  commit: Type.String({ description: 'sha256 hex of `${caseId}:${designId1},...,${designIdN}:${salt}`, published when the case was made' }),
  size: Type.Integer(),
  slots: Type.Array(SlotView),
  /** Switches to another case the user has left today. */
  switchesLeft: Type.Integer({ minimum: 0 }),
  /**
   * Until when the case is held for the caller (no other shopper is shown it: a case lease, renewed while
   * they keep looking); null for a visitor, or when another shopper holds it too (the shop had no case left).
   */
  heldUntil: Nullable(Timestamp)
})
export type CaseView = Static<typeof CaseView>

export const CaseProofRequest = Obj({ caseId: Id })
export type CaseProofRequest = Static<typeof CaseProofRequest>

export const CaseProof = Type.Object({
  caseId: Type.Integer(),
  seriesId: Type.Integer(),
  commit: Type.String(),
  /** scheduled: a case of a drop whose sale has not started. */
  status: StringEnum(['scheduled', 'on_sale', 'sold_out', 'retired'] as const),
  revealed: Type.Boolean(),
  /** Once revealed: design id of every slot, in slot order. */
  arrangement: Type.Optional(Type.Array(Type.Integer())),
  /** Once revealed: the salt (hex). */
  salt: Type.Optional(Type.String())
})
export type CaseProof = Static<typeof CaseProof>
