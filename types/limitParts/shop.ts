/**
 * The shop: box prices and top-ups, the shop calls, the operator's shop settings, finding a series.
 * Plain constants, no schema code (types/limits.ts re-exports them all).
 */
/** Largest price of one box (PRODUCT.md: at most 200 yuan). */
export const MAX_BOX_PRICE_CENTS = 20000

/** What can be ordered: a wallet top-up of amountCents. */
export const TOPUP_PRODUCT_ID = 'wallet_topup'
export const TOPUP_MIN_CENTS = 100
export const TOPUP_MAX_CENTS = 500000

/** The limits of the shop calls (the server enforces them; the app may show them). */
export const SHOP_LIMITS = {
  /** Case switches per user per China day. */
  caseSwitchesPerDay: 5,
  /** Default daily spending cap of a minor (8-17), in cents. */
  minorDailyCapCents: 10000,
  minPurchaseAge: 8,
  adultAge: 18,
  /** Order numbers per user per minute. */
  orderNumbersPerMinute: 30,
  liveFeedMax: 50,
  liveFeedDefault: 20
} as const

/**
 * The operator's shop settings (stored in shop_settings; these are the defaults). Money in cents.
 *   shipFreeFromItems  a shipment of at least this many prizes ships free
 *   shipFeeCents       otherwise this fee is taken from the balance (credit first, then cash)
 *   withdrawMinCents   the smallest withdrawal
 *   withdrawDailyMaxCents  the most a user may ask to withdraw per China day
 *   hintCardPriceCents, xrayCardPriceCents  prices of props (issue 9)
 *   aiDailyPerAccount, aiDailyPerShop  calls that reach a paid AI, picture, video or music provider per
 *     China day: by one account, and by the whole shop (AI_BUDGET; 0 turns them off)
 */
export interface ShopSettings {
  shipFreeFromItems: number
  shipFeeCents: number
  withdrawMinCents: number
  withdrawDailyMaxCents: number
  hintCardPriceCents: number
  xrayCardPriceCents: number
  aiDailyPerAccount: number
  aiDailyPerShop: number
}

/**
 * The daily budget of the calls that reach a paid AI, picture, video or music provider (AiAnalysis,
 * questionRecognize, text2text, textTransform, pic2word, word2pic, text2video, text2music): each such
 * call is one unit, counted per account and for the whole shop per China day. The per-minute limits
 * (server/src/security/rules.ts) alone would let one account make about 28,800 calls a day.
 */
export const AI_BUDGET = {
  /** Default calls per account per day: a busy operator writing a series' texts needs a few dozen. */
  perAccountDefault: 100,
  /** Default calls per shop per day. */
  perShopDefault: 2000,
  perAccountMax: 100_000,
  perShopMax: 999_999
} as const

export const DEFAULT_SHOP_SETTINGS: ShopSettings = {
  shipFreeFromItems: 3,
  shipFeeCents: 1200,
  withdrawMinCents: 100,
  withdrawDailyMaxCents: 500000,
  hintCardPriceCents: 300,
  xrayCardPriceCents: 1500,
  aiDailyPerAccount: AI_BUDGET.perAccountDefault,
  aiDailyPerShop: AI_BUDGET.perShopDefault
}

/**
 * Settings that contradict each other, whichever was changed: a smallest withdrawal above the daily
 * maximum would refuse every withdrawal. Checked by the server on the settings as they would be
 * after a save (nothing is saved when one holds) and by the form beside the field before it sends.
 * `field` is the setting to name: the one of the pair that `changed` holds (the first when both).
 */
export interface SettingsConflict { field: keyof ShopSettings; rule: 'withdrawMinAboveDailyMax'; otherCents: number }
export function settingsConflicts (s: ShopSettings, changed: ReadonlyArray<keyof ShopSettings> = []): SettingsConflict[] {
  const out: SettingsConflict[] = []
  if (s.withdrawMinCents > s.withdrawDailyMaxCents) {
    const field = changed.includes('withdrawMinCents') || !changed.includes('withdrawDailyMaxCents') ? 'withdrawMinCents' : 'withdrawDailyMaxCents'
    out.push({ field, rule: 'withdrawMinAboveDailyMax', otherCents: field === 'withdrawMinCents' ? s.withdrawDailyMaxCents : s.withdrawMinCents })
  }
  return out
}

/**
 * Finding a series on home (issue 27 item 2): the search text, the theme tags operators give a series,
 * and "popular" (boxes sold in the last POPULAR_DAYS days, counted again at most every refresh).
 */
export const SERIES_SEARCH = {
  queryMax: 60,
  suggestionsMax: 8,
  tagsPerSeriesMax: 8,
  tagNameMax: 20,
  tagFilterMax: 10,
  popularDays: 7,
  popularRefreshMs: 60_000
} as const
