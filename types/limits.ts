/**
 * The limits of the contract as plain constants: the app imports them (forms, hints) without pulling
 * any schema code into its bundles; the schemas in types/ are built from them, so both sides agree.
 */

/** Login form limits (spec 5, 9), checked by the app's forms and by the server's schemas. */
export const LOGIN_LIMITS = {
  userNameMin: 1,
  userNameMax: 100,
  passwordMin: 3,
  passwordMax: 18,
  codeMin: 4,
  codeMax: 6,
  /** Mainland mobile numbers. */
  phonePattern: '^1[3-9]\\d{9}$',
  emailMax: 254
} as const

/**
 * Integers on the wire fit the database and JavaScript: ids are PostgreSQL bigints, but no id above
 * 2^53 - 1 can exist here (JavaScript numbers), so larger ones are refused by the schema (400), never
 * passed to a query.
 */
export const MAX_ID = Number.MAX_SAFE_INTEGER
/** Pages: size at most 100; page at most 100,000, so an offset stays below 10^7 rows. */
export const PAGE_SIZE_MAX = 100
export const PAGE_MAX = 100_000
/** The largest case (series_case_size_check). */
export const CASE_SIZE_MAX = 100
/** The largest amount of money in one field of a request (1 million yuan, in cents). */
export const MONEY_MAX_CENTS = 100_000_000

/** Largest price of one box (PRODUCT.md: at most 200 yuan). */
export const MAX_BOX_PRICE_CENTS = 20000

/** What can be ordered: a wallet top-up of amountCents. */
export const TOPUP_PRODUCT_ID = 'wallet_topup'
export const TOPUP_MIN_CENTS = 100
export const TOPUP_MAX_CENTS = 500000

/** Idempotency keys of money-moving calls; order numbers (opId). */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_-]{8,64}$'
export const OP_ID_PATTERN = '^[A-Za-z0-9]{8,32}$'

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

/** Error reports (spec 3, 8): the longest text of each field, and the body. */
/** A request id: what the server takes from X-Request-Id (anything else is replaced by one it makes) and answers in it. */
export const REQUEST_ID_PATTERN = '^[A-Za-z0-9._:-]{8,64}$'

export const ERROR_REPORT_LIMITS = {
  error_message: 4000,
  path: 500,
  type: 50,
  sub_source: 50,
  app_id: 100,
  /** The X-Request-Id of the call that failed, when the error came from one. */
  request_id: 64,
  /** bytes of JSON: 4000 characters of CJK text with escapes fit */
  body: 32 * 1024
} as const

/**
 * Strings refuse control characters: a single-line text none of U+0000-U+001F and U+007F; a
 * multi-line text allows tab, line feed and carriage return. (PostgreSQL cannot store U+0000 at all.)
 */
export const SINGLE_LINE_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$'
export const MULTI_LINE_PATTERN = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$'

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
 * Spending limits (types/security.ts) that contradict each other: a daily limit above the monthly one (both set; null is no limit).
 * Checked on the limits as they will stand once every change applies (the server) and on the form.
 */
export function dailyAboveMonthly (daily: number | null, monthly: number | null): boolean {
  return daily !== null && monthly !== null && daily > monthly
}

/** After the draw (issue 8). */
/**
 * A recipient's name (and each part of a region) needs at least one letter of some script: a Chinese
 * character or a Latin, Cyrillic... letter (Unicode general category L). "😀😀" or "123" names nobody a
 * courier can ask for (issue 48). Used with the `u` flag, alike by the server and the app.
 */
export const ADDRESS_NAME_LETTER = '\\p{L}'

export const AFTER_DRAW_LIMITS = {
  /** Prizes in one shipment, or in one recycle request. */
  itemsPerRequestMax: 50,
  /** A shipped parcel counts as received this long after it was shipped, if the shopper does not confirm. */
  autoReceiveDays: 10,
  /** Addresses per user. */
  addressesMax: 20,
  carrierCodePattern: '^[a-z0-9]{2,32}$',
  trackingNoPattern: '^[A-Za-z0-9-]{4,40}$',
  /** The authenticity code a packing slip's QR carries (the verify= of its link). */
  verifyCodePattern: '^[A-Za-z0-9_-]{16,32}$'
} as const

/** Pickup points (自提, issue 24; spec 9's location lists). */
export const PICKUP_LIMITS = {
  /** Points per page of the nearby list (spec 9: location lists of 20). */
  pageSize: 20,
  /** How far a shopper's nearby list reaches (spec 9: nearby radius 5000 m). */
  nearbyRadius: 5000,
  /** When none is that near: the widest search (spec 9: 50000 m for a keyword search). */
  wideRadius: 50000,
  /** Points an operator may keep open. */
  pointsMax: 200,
  nameMax: 50,
  addressMax: 200,
  hoursMax: 100
} as const

/** Props (issue 9): free shakes per China day, how long an X-ray card holds a slot, cards per purchase. */
export const PROP_LIMITS = {
  shakesPerDay: 3,
  reservationMinutes: 10,
  buyMax: 10
} as const

/**
 * Maps, places and parcels (spec 5, 9; types/geo.ts, types/express.ts). The app and the server both
 * check these, with the same message texts.
 */
export const GEO_LIMITS = {
  /** Nearby search radius when a `nearby(lat,lng)` boundary gives none (spec 7, 9), metres. */
  defaultNearbyRadius: 1000,
  /** The widest radius a nearby search may ask for (the keyword search of spec 9), metres. */
  maxNearbyRadius: 50000,
  minNearbyRadius: 10,
  /** Places per page of a nearby search (the provider's own maximum is 20). */
  placePageSizeMax: 20,
  placePageMax: 100,
  addressMax: 120,
  keywordMax: 96,
  ipMax: 45
} as const

/** Carriers whose tracking needs the phone number (or its last four digits) of the sender or receiver. */
export const EXPRESS_PHONE_CARRIERS = ['shunfeng', 'shunfengkuaiyun'] as const
export const EXPRESS_LIMITS = {
  /** The carrier codes and tracking numbers shipments store (AFTER_DRAW_LIMITS). */
  comPattern: AFTER_DRAW_LIMITS.carrierCodePattern,
  numPattern: AFTER_DRAW_LIMITS.trackingNoPattern,
  /** A whole phone number, or its last four digits (Kuaidi100 accepts both). */
  phonePattern: '^(\\d{4}|1[3-9]\\d{9}|0\\d{2,3}-?\\d{7,8})$',
  placeMax: 60
} as const

/** Withdrawals (issue 8). */
export const WITHDRAW_LIMITS = {
  /** The longest rejection reason. */
  reasonMax: 200,
  /** WeChat Pay refunds an order within a year of its payment: older orders are not used (a day's margin). */
  wechatRefundableDays: 364
} as const

/** Account security (issue 10): a raised (or removed) spending limit waits this long before it applies. */
export const LIMIT_RAISE_DELAY_MS = 24 * 60 * 60 * 1000
/** The longest reason for (or note on) a birth-date correction. */
export const CORRECTION_REASON_MAX = 200

/**
 * Roles, the audit log and combine recipes (issue 10): the operators' user search, the audit log's
 * pages, and what a recipe may hold (the editor's form checks the same numbers as the server).
 */
export const OPERATOR_LIMITS = {
  /** The longest search text (a user name, a phone or an e-mail address, or a part of one). */
  userQueryMax: 100,
  /** Rows per page of the user search and of the audit log. */
  pageSizeMax: 50,
  /** An audit entity name (series, recipe, setting, user, ...). */
  auditEntityPattern: '^[a-z_]{1,32}$'
} as const
export const RECIPE_LIMITS = {
  nameMax: 100,
  inputCountMin: 2,
  inputCountMax: 20,
  poolMax: 100,
  weightMax: 1_000_000
} as const

/**
 * The series editor (issue 10). A draft may be saved half done; publishing asks for every rule at once.
 * Images: uploads of at most UPLOAD_MAX_MB megabytes (MiB), PNG, JPEG, WebP or GIF, recognised by their
 * bytes (not by a name or a declared type).
 */
export const EDITOR_LIMITS = {
  titleMax: 60,
  descriptionMax: 1000,
  rulesMax: 2000,
  designNameMax: 40,
  /** A design picture's description (its accessible name). */
  altMax: 200,
  /** Designs a series needs to be published. */
  designsToPublish: 3,
  designsMax: CASE_SIZE_MAX + 1,
  /** Largest reference or recycle value of a design (10,000 yuan). */
  valueMaxCents: 1_000_000
} as const
/**
 * The most cases an operator opens ahead of a launch in one call (each is a shuffle, a commitment and a
 * row per slot; a thousand take about a second on PostgreSQL). The series' cap of open cases at once
 * (CASE_SPREAD.maxOpenCases on the server) still holds.
 */
export const CASES_AHEAD_MAX = 1000
export const UPLOAD_MAX_MB = 2
export const UPLOAD_MAX_BYTES = UPLOAD_MAX_MB * 1024 * 1024
/**
 * The most pixels (width x height) an image may have once decoded: 4096 x 4096, 64 MB of RGBA. A file
 * under UPLOAD_MAX_MB can claim far more (a 150 KB PNG of 30000 x 30000 is 3.6 GB decoded), and every
 * phone that shows it would decode it. Read from the file's header before anything decodes it: uploads,
 * OCR, the phone's QR scan, and pictures inside PDFs.
 */
export const IMAGE_MAX_PIXELS = 4096 * 4096
export const UPLOAD_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
/** The form field of an upload (Taro.uploadFile's `name`, the H5 form's field). */
export const UPLOAD_FIELD = 'file'
/**
 * The widths (in device pixels) an image is served at besides its own: /media/...?w=N answers the image
 * scaled down to the smallest of these at least N wide (never up: an image narrower than that comes
 * as it is), so a phone fetches what its screen shows and no more, and there are few copies to cache.
 */
export const MEDIA_WIDTHS = [64, 96, 128, 160, 240, 320, 480, 640, 960, 1280] as const
/** Where uploaded images are served: /media/u/<sha-256>.<ext>. */
export const UPLOAD_URL_PATTERN = '^/media/(u|art)/[0-9a-f-]+\\.(png|jpg|webp|gif)$'

/**
 * The complaint channel (issue 10, PRODUCT.md "Protecting shoppers"): the contact form's limits (the
 * form and the server check the same numbers), how often a shopper may write, and the spec's mail and
 * chat-robot calls behind it (spec 7: /common/mail/send, /api/feishuRobotText, /api/wechatRobotText).
 */
export const COMPLAINT_TOPICS = ['order', 'prize', 'shipping', 'payment', 'account', 'other'] as const
export const COMPLAINT_LIMITS = {
  /** The message: long enough to say what happened, short enough to read. */
  textMin: 10,
  textMax: 1000,
  /** The operator's reply. */
  replyMax: 1000,
  /** A related order, parcel or tracking number (letters, digits, -). */
  orderNoPattern: '^[A-Za-z0-9-]{4,40}$',
  /** Complaints one account may send per hour (more: 429 saying when to try again). */
  perHour: 3,
  /** Rows per page of the shopper's list and of the operators' queue. */
  pageSizeMax: 50
} as const
/** POST /common/mail/send: lengths, placeholders ({name} in title and content, filled from params). */
export const MAIL_SEND_LIMITS = {
  titleMax: 200,
  contentMax: 5000,
  paramsMax: 20,
  paramNamePattern: '^[A-Za-z0-9_]{1,32}$',
  paramValueMax: 500,
  /** Mails per hour: a shopper (only to the shop's complaint mailbox), an operator (to anyone). */
  shopperPerHour: 5,
  operatorPerHour: 60
} as const
/**
 * Chat-robot texts: WeCom takes at most 2048 bytes of UTF-8 in a text message; 600 UTF-16 units are at
 * most 1800 bytes, so a text the server accepts is never cut by the robot.
 */
export const ROBOT_TEXT_MAX = 600

/** Text to speech (issue 11): the longest text read aloud. */
export const SPEECH_LIMITS = {
  textMax: 500
} as const

/** The AI calls (issue 11): lengths and files. */
export const AI_LIMITS = {
  queryMax: 4000,
  promptMax: 4000,
  filesMax: 4,
  urlMax: 2000
} as const

/**
 * Pictures (issue 11): OCR, picture to words, words to picture, and the shopper's screenshot upload.
 * OCR reads an uploaded image (UPLOAD_MAX_MB, IMAGE_MAX_PIXELS) with the local engine in Chinese and
 * English; a larger picture than `ocrMaxPixels` is scaled down to that many before it is read (the
 * engine's time grows with the pixels: 23 megapixels of small print kept it busy for over a minute),
 * and a reading that takes longer than `ocrTimeoutS` is given up (422); a generated picture is
 * described in at most `promptMax` characters; a shopper may attach `shopperUploadsPerHour`
 * screenshots an hour (each kept like an operator's upload).
 */
export const VISION_LIMITS = {
  ocrMaxPixels: 4_000_000,
  ocrTimeoutS: 20,
  promptMax: 1000,
  shopperUploadsPerHour: 20
} as const
/** The sizes a generated picture may have (the OpenAI-compatible Images API's square and portrait sizes). */
export const WORD2PIC_SIZES = ['1024x1024', '1024x1536', '1536x1024', '512x512', '256x256'] as const

/**
 * The long-running helper tasks (spec 4, 7, 9; issue 11): PDF to images (a local engine), text to video
 * and text to music (providers). The client polls every TASK_POLL_MS with no cap on attempts; the
 * server bounds the work itself (pages, pixels, bytes, time) and gives up on a task it lost (a restart)
 * after `pdfStaleMs`, so no poll goes on for ever.
 */
export const TASK_POLL_MS = 2000
export const TASK_LIMITS = {
  /** Pages rendered of one PDF (the rest are counted, not drawn). */
  pdfMaxPages: 20,
  /** A page's longer side in pixels. */
  pdfMaxSide: 1200,
  /** All of one PDF's PNGs together. */
  pdfMaxOutputBytes: 24 * 1024 * 1024,
  /** A picture inside a PDF (a larger one is refused before it is decoded). */
  pdfMaxImagePixels: IMAGE_MAX_PIXELS,
  /** The renderer's memory (its heap and every buffer and canvas: prlimit --data), megabytes. */
  pdfMemoryMb: 512,
  /** One PDF's rendering, start to end. */
  pdfTimeoutMs: 60_000,
  /** A PDF task neither done nor failed after this long was lost (e.g. the server restarted): failed. */
  pdfStaleMs: 10 * 60_000,
  /** PDF tasks waiting for the engine (a new one beyond this is refused until some finish). */
  pdfQueueMax: 8,
  /** One account's PDF tasks waiting or being drawn (its next is refused until one finishes); accounts take turns. */
  pdfQueuePerAccount: 2,
  videoTextMax: 500,
  musicPromptMax: 400,
  /** Clips one queryMusic may ask about (a generation makes two). */
  musicItemsMax: 4
} as const
/** PDF uploads (operators: catalogues, invoices), recognised by their bytes. */
export const UPLOAD_PDF_MAX_MB = 8
export const UPLOAD_PDF_MAX_BYTES = UPLOAD_PDF_MAX_MB * 1024 * 1024
/** An uploaded PDF's URL (what pdf2image accepts: the shop's own uploads only, never another host). */
export const PDF_URL_PATTERN = '^(https?://[^/?#\\s]+)?/media/u/[0-9a-f]{64}\\.pdf$'

/**
 * A music prompt as spec 5 wants it sent: line breaks and tabs become commas, runs of two or more
 * spaces a comma, then trimmed. (The client applies it before sending; the server applies it again, so
 * a prompt from elsewhere is treated the same.)
 */
export function normaliseMusicPrompt (prompt: string): string {
  return prompt.replace(/\r\n|[\r\n\t]/g, ',').replace(/ {2,}/g, ',').trim()
}

/**
 * Price comparison (issue 11, /api/bijia_spu_search and /api/bijia_spu_goods_search): a keyword search
 * for products (SPUs), then the offers of one product. Answers are kept on the server for `cacheMs`.
 */
export const PRICE_LIMITS = {
  keywordMin: 1,
  keywordMax: 60,
  pageMax: 10,
  /** Products (search) and offers (one product) per answer. */
  pageSize: 20,
  /** JD's spuId: a positive integer, sent as digits. */
  spuIdPattern: '^[1-9][0-9]{0,14}$',
  cacheMs: 10 * 60 * 1000,
  /** Price comparisons per account per minute. */
  perMinute: 30
} as const

/**
 * Train tickets and flights (issue 11, /api/queryTickets and /api/queryFlight {from, to, date}): the date
 * is a calendar day in China time (Asia/Shanghai), not before today and at most so many days ahead
 * (12306 sells train tickets 15 days ahead; flights are searched up to a year ahead).
 */
export const TRAVEL_LIMITS = {
  /** A station or city name in Chinese characters (e.g. 北京, 上海虹桥). */
  stationPattern: '^[\\u4e00-\\u9fa5]{2,10}$',
  /** A city or airport by its three-letter IATA code (e.g. BJS, SHA, PEK). */
  airportPattern: '^[A-Z]{3}$',
  datePattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
  trainDaysAhead: 15,
  flightDaysAhead: 365,
  /** Ticket and flight queries per account per minute. */
  perMinute: 20
} as const

/** The generic call POST /api/{method_name} (issue 11): the allow-listed methods (types/methods.ts). */
export const HELPER_METHOD_NAMES = ['serverTime', 'helperFeatures', 'travelDates'] as const

/** The tables of the generic table API (types/data.ts DATA_ROWS has one row schema for each). */
export const DATA_TABLE_NAMES = ['series', 'designs', 'cases', 'addresses', 'prizes'] as const

/**
 * Launch events (首发活动, issue 24): an operator announces where and when a series launches; a
 * shopper may ask to be reminded, which happens remindBeforeMs before it starts (or at once when that
 * is already past), by the mini-program's subscription message or by mail.
 */
export const EVENT_LIMITS = {
  titleMax: 40,
  venueMax: 50,
  addressMax: 200,
  /** How long an event may last. */
  durationMaxMs: 7 * 86_400_000,
  /** How far ahead an event may be announced. */
  aheadMaxDays: 365,
  remindBeforeMs: 24 * 3_600_000,
  /** Events per page (spec 9's lists of 20). */
  pageSize: 20,
  /** Tries of a reminder whose provider was down, and the wait before the next (doubling). */
  sendAttempts: 3,
  retryMs: 5 * 60_000,
  /** A reminder claimed this long ago and never finished (the server stopped mid-send) is given up, never sent twice. */
  staleSendingMs: 10 * 60_000
} as const

/**
 * The player show (玩家秀, issue 27): shoppers post their own prizes with photos and text; likes,
 * comments one level deep, reports and operator moderation. The app and the server check the same numbers.
 */
export const SHOW_SORTS = ['newest', 'popular'] as const
export const SHOW_REPORT_REASONS = ['spam', 'fake', 'offensive', 'personal', 'other'] as const
export const SHOW_LIMITS = {
  textMax: 500,
  /** Prizes in one post. */
  prizesMax: 9,
  /** Photos in one post (each an upload through /api/upload/image). */
  imagesMax: 6,
  commentMax: 200,
  /** The reporter's own words beside the reason. */
  reportNoteMax: 200,
  /** The operator's reason for hiding, told to the author. */
  moderationReasonMax: 200,
  /** Reports (from different accounts) that hide a post or comment until an operator reviews it. */
  reportsToHide: 3,
  /**
   * A report counts toward hiding only from an account with at least this many purchases (boxes bought
   * with its own money): something at stake, where a new account costs nothing (issue 48). A report
   * from any other account is recorded and shown to operators, and hides nothing.
   */
  reportStakePurchases: 1,
  /** Reports listed per thing in the moderation queue (newest first). */
  reportsShown: 20,
  postsPerHour: 5,
  commentsPerHour: 30,
  reportsPerHour: 20,
  pageSizeMax: 30,
  /** The "popular" feed ranks by the likes of these last days (then all likes, comments, newest). */
  popularDays: 7,
  /** The operators' word list: how many words, how long each. */
  wordsMax: 300,
  wordMax: 30,
  /** Posts a series page shows. */
  seriesBest: 3
} as const

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
