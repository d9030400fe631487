/**
 * The series editor (issue 10, PRODUCT.md "The blind-box model", "Protecting shoppers"): operators list
 * series by status, create and change them in both languages, upload design images, publish a draft
 * (every rule checked at once) and retire a series on sale (its open cases are revealed).
 *
 * What may change when: a draft changes freely. Once published, the composition (designs, rarities,
 * values), the price and the hidden chance are fixed, since shoppers bought at those odds: texts, names
 * and images may still be corrected. Every change is audited with the state before and after.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { CASES_AHEAD_MAX, EDITOR_LIMITS, IMAGE_MAX_PIXELS, MAX_BOX_PRICE_CENTS, OPERATOR_LIMITS, PAGE_MAX, SERIES_SEARCH, UPLOAD_FIELD, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB, UPLOAD_PDF_MAX_BYTES, UPLOAD_PDF_MAX_MB, UPLOAD_URL_PATTERN } from './limits'
import { Id, MultilineText, Nullable, Obj, PageResult, StringEnum, Text, Timestamp } from './schema'
import { Rarity } from './shop'
import { KUJI_TICKETS_MAX, KUJI_TURN, KujiDoubleChanceWinners, KujiTier } from './kuji'

export const EditorSeriesStatus = StringEnum(['draft', 'on_sale', 'retired'] as const)
export type EditorSeriesStatus = Static<typeof EditorSeriesStatus>
export const SeriesKind = StringEnum(['case', 'kuji'] as const)
export type SeriesKind = Static<typeof SeriesKind>

const Ppm = Type.Integer({ minimum: 0, maximum: 1_000_000, description: 'parts per million' })
const ImageUrl = Type.String({ pattern: UPLOAD_URL_PATTERN, maxLength: 200, description: 'An uploaded image (/media/u/...) or a demo one (/media/art/...)' })
const Value = Type.Integer({ minimum: 0, maximum: EDITOR_LIMITS.valueMaxCents })
const Bilingual = (maxLength: number, multiline = false) => {
  const one = multiline ? MultilineText({ maxLength }) : Text({ maxLength })
  return Obj({ zh: one, en: one })
}

// ---- list and read ------------------------------------------------------------------------------------

export const EditorSeriesListRequest = Obj({
  page: Type.Integer({ minimum: 1, maximum: PAGE_MAX }),
  size: Type.Integer({ minimum: 1, maximum: OPERATOR_LIMITS.pageSizeMax }),
  /** Absent: every status. */
  status: Type.Optional(EditorSeriesStatus)
})
export type EditorSeriesListRequest = Static<typeof EditorSeriesListRequest>

export const EditorSeriesRow = Type.Object({
  id: Type.Integer(),
  title: Type.Object({ zh: Type.String(), en: Type.String() }),
  status: EditorSeriesStatus,
  priceCents: Type.Integer(),
  designCount: Type.Integer(),
  cover: Nullable(Type.String()),
  /** Cases open now and boxes sold over the series' life. */
  casesOnSale: Type.Integer(),
  boxesSold: Type.Integer(),
  updatedAt: Timestamp
})
export type EditorSeriesRow = Static<typeof EditorSeriesRow>

export const EditorSeriesListResponse = Type.Object({
  ...PageResult(EditorSeriesRow).properties,
  /** Series per status, for the filter's counts. */
  counts: Type.Object({ draft: Type.Integer(), on_sale: Type.Integer(), retired: Type.Integer() })
})
export type EditorSeriesListResponse = Static<typeof EditorSeriesListResponse>

export const EditorDesign = Type.Object({
  id: Type.Integer(),
  name: Type.Object({ zh: Type.String(), en: Type.String() }),
  /** The picture described for those who cannot see it ('' until written: the name serves). */
  alt: Type.Object({ zh: Type.String(), en: Type.String() }),
  rarity: Rarity,
  image: Nullable(Type.String()),
  referenceValueCents: Type.Integer(),
  recycleValueCents: Type.Integer(),
  /** Figures on hand in the warehouse, and how many of them cases and prizes hold (the stock screen changes them). */
  stock: Type.Integer(),
  committed: Type.Integer(),
  /** A kuji series' design: its tier ('A'..'Z', or 'last_one'), and its tickets in a set (null and 0 otherwise). */
  tier: Nullable(Type.String()),
  tickets: Type.Integer()
})
export type EditorDesign = Static<typeof EditorDesign>

export const EditorSeries = Type.Object({
  id: Type.Integer(),
  status: EditorSeriesStatus,
  title: Type.Object({ zh: Type.String(), en: Type.String() }),
  description: Type.Object({ zh: Type.String(), en: Type.String() }),
  rules: Type.Object({ zh: Type.String(), en: Type.String() }),
  cover: Nullable(Type.String()),
  priceCents: Type.Integer(),
  hiddenCasePpm: Ppm,
  /** Boxes per case: the regular and rare designs (the case model); a kuji series: tickets per set. */
  caseSize: Type.Integer(),
  /** case: blind-box cases; kuji: 一番赏 sets of tickets in tiers with a Last One (types/kuji.ts). */
  kind: SeriesKind,
  /** A kuji series: each shopper's turn at the set (seconds), and its Double Chance winners per set (0: none). */
  turnSeconds: Type.Integer(),
  doubleChanceWinners: Type.Integer(),
  designs: Type.Array(EditorDesign),
  /** Theme tags shoppers filter by on home, in their shown order. */
  tags: Type.Array(Type.Object({ zh: Type.String(), en: Type.String() })),
  /** Bumped by every change: a save names the version it started from (409 if another save came first). */
  version: Type.Integer(),
  updatedAt: Timestamp
})
export type EditorSeries = Static<typeof EditorSeries>

// ---- save, publish, retire ----------------------------------------------------------------------------

export const EditorDesignInput = Obj({
  /** Absent: a new design; present: a design of this series. */
  id: Type.Optional(Id),
  name: Bilingual(EDITOR_LIMITS.designNameMax),
  /** The picture described (the pages' accessible name of the image); may change after publishing. */
  alt: Type.Optional(Bilingual(EDITOR_LIMITS.altMax)),
  rarity: Rarity,
  image: Nullable(ImageUrl),
  referenceValueCents: Value,
  recycleValueCents: Value,
  /** A kuji series only: the tier ('A'..'Z', last_one for the Last One, double_chance for the Double Chance prize) and its tickets in a set. */
  tier: Type.Optional(KujiTier),
  tickets: Type.Optional(Type.Integer({ minimum: 0, maximum: KUJI_TICKETS_MAX }))
})
export type EditorDesignInput = Static<typeof EditorDesignInput>

export const EditorSeriesSaveRequest = Obj({
  /** Absent: a new draft; present: that series is changed. */
  id: Type.Optional(Id),
  /** The version the editor loaded (present with id): a save over a newer version is a 409. */
  version: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
  title: Bilingual(EDITOR_LIMITS.titleMax),
  description: Bilingual(EDITOR_LIMITS.descriptionMax, true),
  rules: Bilingual(EDITOR_LIMITS.rulesMax, true),
  cover: Nullable(ImageUrl),
  priceCents: Type.Integer({ minimum: 1, maximum: MAX_BOX_PRICE_CENTS, description: 'At most 200 yuan (PRODUCT.md)' }),
  hiddenCasePpm: Ppm,
  /** case (absent) or kuji; fixed once the series is published. */
  kind: Type.Optional(SeriesKind),
  /** A kuji series: each shopper's turn at the set (seconds; absent: unchanged, 60 for a new series). */
  turnSeconds: Type.Optional(Type.Integer({ minimum: KUJI_TURN.minSeconds, maximum: KUJI_TURN.maxSeconds })),
  /** A kuji series: Double Chance winners per set (absent: unchanged, 0 for a new series), with one design of tier double_chance. */
  doubleChanceWinners: Type.Optional(KujiDoubleChanceWinners),
  /** The designs in their shown order. */
  designs: Type.Array(EditorDesignInput, { maxItems: EDITOR_LIMITS.designsMax }),
  /**
   * Theme tags (absent: unchanged), editable at any time. A tag is one name in both languages: the same
   * name (after NFKC and case folding) on two series is one tag, and the last save's wording wins.
   */
  tags: Type.Optional(Type.Array(Bilingual(SERIES_SEARCH.tagNameMax), { maxItems: SERIES_SEARCH.tagsPerSeriesMax }))
})
export type EditorSeriesSaveRequest = Static<typeof EditorSeriesSaveRequest>

export const EditorSeriesIdRequest = Obj({ seriesId: Id })
export type EditorSeriesIdRequest = Static<typeof EditorSeriesIdRequest>

export const EditorSeriesPublishRequest = Obj({
  seriesId: Id,
  /**
   * The designs worth less than one box that the operator was shown and publishes all the same (the
   * 409 `low_value` answer lists them). Every such design must be in it; the list is audited.
   */
  lowValueAcknowledged: Type.Optional(Type.Array(Id, { maxItems: EDITOR_LIMITS.designsMax }))
})
export type EditorSeriesPublishRequest = Static<typeof EditorSeriesPublishRequest>

/**
 * A design whose reference value is below the price of one box. WeChat's review asks a blind-box seller
 * to show that every item is worth what a box costs, so publishing such a series needs the operator's
 * acknowledgement (EditorSeriesPublishRequest.lowValueAcknowledged).
 */
export const LowValueDesign = Type.Object({
  designId: Type.Integer(),
  name: Type.Object({ zh: Type.String(), en: Type.String() }),
  referenceValueCents: Type.Integer()
})
export type LowValueDesign = Static<typeof LowValueDesign>
export const LowValueData = Type.Object({
  reason: Type.Literal('low_value'),
  priceCents: Type.Integer(),
  designs: Type.Array(LowValueDesign)
})
export type LowValueData = Static<typeof LowValueData>

export const CasesOpenAheadRequest = Obj({
  seriesId: Id,
  /** How many cases to open now (fewer when the series reaches its cap of open cases). */
  count: Type.Integer({ minimum: 1, maximum: CASES_AHEAD_MAX })
})
export type CasesOpenAheadRequest = Static<typeof CasesOpenAheadRequest>
export const CasesOpenAheadResult = Type.Object({
  /** Cases opened by this call. */
  opened: Type.Integer(),
  /** Cases of the series on sale now. */
  open: Type.Integer(),
  /** The most cases of one series on sale at once. */
  max: Type.Integer(),
  /** Fewer were opened than asked because the warehouse could not fill more (the stock screen shows why). */
  stockShort: Type.Boolean()
})
export type CasesOpenAheadResult = Static<typeof CasesOpenAheadResult>

// ---- stock ------------------------------------------------------------------------------------------------

export const DesignStock = Type.Object({
  designId: Type.Integer(),
  name: Type.Object({ zh: Type.String(), en: Type.String() }),
  rarity: Rarity,
  /** Figures on hand in the warehouse. */
  stock: Type.Integer(),
  /** Of those, the ones cases on sale and shoppers' prizes in the warehouse hold. */
  committed: Type.Integer(),
  /** stock - committed: what new cases may take. */
  free: Type.Integer(),
  /** Whether every new case needs one (the hidden design only while the series has a hidden chance). */
  inEveryCase: Type.Boolean()
})
export type DesignStock = Static<typeof DesignStock>

export const SeriesStock = Type.Object({
  seriesId: Type.Integer(),
  status: EditorSeriesStatus,
  designs: Type.Array(DesignStock),
  /** New cases the warehouse can still fill: a case takes one figure of each design it may hold. */
  casesFillable: Type.Integer(),
  /** Cases on sale now. */
  openCases: Type.Integer(),
  /** On sale, with no case on sale and none the warehouse can fill: shoppers see 已售罄 / Sold out. */
  soldOut: Type.Boolean()
})
export type SeriesStock = Static<typeof SeriesStock>

export const StockSaveRequest = Obj({
  seriesId: Id,
  designs: Type.Array(Obj({
    designId: Id,
    /** The new count of figures on hand (a stock-take, or after a delivery). */
    stock: Type.Integer({ minimum: 0, maximum: EDITOR_LIMITS.stockMax }),
    /** The count the screen showed: when it has changed since (a parcel left), the save is a 409. */
    was: Type.Integer({ minimum: 0, maximum: EDITOR_LIMITS.stockMax })
  }), { minItems: 1, maxItems: EDITOR_LIMITS.designsMax })
})
export type StockSaveRequest = Static<typeof StockSaveRequest>

/** Why a draft cannot be published: every problem at once, each naming its field. */
export const PublishProblem = Type.Object({
  /** e.g. title.en, designs.2.image, hiddenCasePpm, designs */
  field: Type.String(),
  message: Type.String()
})
export type PublishProblem = Static<typeof PublishProblem>
export const PublishBlockedData = Type.Object({ problems: Type.Array(PublishProblem) })
export type PublishBlockedData = Static<typeof PublishBlockedData>

// ---- uploads ------------------------------------------------------------------------------------------

export const UploadResult = Type.Object({
  /** Where the image is served (/media/u/<sha-256>.<ext>); the same bytes always get the same URL. */
  url: Type.String(),
  contentType: Type.String(),
  bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer()
})
export type UploadResult = Static<typeof UploadResult>

const tag = 'operator'
export const editorRoutes = {
  seriesList: route({
    method: 'POST', url: '/api/operator/seriesList', auth: 'operator', tag, body: EditorSeriesListRequest, data: EditorSeriesListResponse,
    summary: 'Every series by status (drafts too), newest change first'
  }),
  series: route({
    method: 'POST', url: '/api/operator/series', auth: 'operator', tag, body: EditorSeriesIdRequest, data: EditorSeries,
    summary: 'One series as the editor changes it (drafts too)'
  }),
  seriesSave: route({
    method: 'POST', url: '/api/operator/seriesSave', auth: 'operator', tag, body: EditorSeriesSaveRequest, data: EditorSeries,
    summary: 'Create a draft or change a series (audited)',
    description: 'A published series keeps its composition, price and hidden chance (422 naming the field); a save over a newer version is a 409.'
  }),
  seriesPublish: route({
    method: 'POST', url: '/api/operator/seriesPublish', auth: 'operator', tag, body: EditorSeriesPublishRequest, data: EditorSeries,
    summary: 'Put a draft on sale (its first case is made and committed; audited)',
    description: '422 with data.problems listing every rule broken: texts in both languages, enough designs, every image, odds that add up, the price. 409 with data.reason `low_value` (LowValueData) when a design is worth less than one box and is not in lowValueAcknowledged.'
  }),
  seriesRetire: route({
    method: 'POST', url: '/api/operator/seriesRetire', auth: 'operator', tag, body: EditorSeriesIdRequest, data: EditorSeries,
    summary: 'Take a series off sale: every open case is retired and revealed'
  }),
  casesOpenAhead: route({
    method: 'POST', url: '/api/operator/casesOpenAhead', auth: 'operator', tag, body: CasesOpenAheadRequest, data: CasesOpenAheadResult,
    summary: 'Open cases of a series on sale ahead of a launch (audited)',
    description: 'Each case is shuffled and committed like any other, so shoppers arriving at once are given ready cases instead of waiting while one is made. Stops at the series\' cap of open cases (answered in max). 422 when the series is not on sale.'
  }),
  stock: route({
    method: 'POST', url: '/api/operator/stock', auth: 'operator', tag, body: EditorSeriesIdRequest, data: SeriesStock,
    summary: 'The warehouse counts of a series\' designs: on hand, held by cases and prizes, free'
  }),
  stockSave: route({
    method: 'POST', url: '/api/operator/stockSave', auth: 'operator', tag, body: StockSaveRequest, data: SeriesStock,
    summary: 'Set the figures on hand of designs of a series (audited)',
    description: 'Never below what cases on sale and prizes in the warehouse hold (422 naming designs.N.stock); a count that changed since the screen read it is a 409 (data.field). A series on sale with no case gets one as soon as the warehouse can fill it.'
  }),
  upload: route({
    method: 'POST', url: '/api/operator/upload', auth: 'operator', tag, data: UploadResult,
    upload: { field: UPLOAD_FIELD, maxBytes: UPLOAD_MAX_BYTES },
    summary: 'Upload an image (multipart/form-data, field `file`)',
    description: `PNG, JPEG, WebP or GIF, recognised by its bytes, at most ${UPLOAD_MAX_MB} MB and ${IMAGE_MAX_PIXELS} pixels once decoded, by its header (422 naming file when larger, 400 when not such an image or no file). Stored by the server and served under /media/u/.`
  }),
  uploadPdf: route({
    method: 'POST', url: '/api/operator/uploadPdf', auth: 'operator', tag, data: UploadResult,
    upload: { field: UPLOAD_FIELD, maxBytes: UPLOAD_PDF_MAX_BYTES },
    summary: 'Upload a PDF (a catalogue, an invoice; multipart/form-data, field `file`) to show it as images (pdf2image)',
    description: `A PDF, recognised by its bytes (%PDF-), at most ${UPLOAD_PDF_MAX_MB} MB (422 naming file when larger, 400 when not a PDF). Served under /media/u/<sha-256>.pdf; width and height are 0.`
  })
}
