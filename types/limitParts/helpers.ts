/**
 * The helper calls (issue 11): chat robots, speech, AI, pictures, long-running tasks, PDFs, music,
 * price comparison, travel, the generic method and table calls.
 * Plain constants, no schema code (types/limits.ts re-exports them all).
 */
import { IMAGE_MAX_PIXELS } from './uploads'

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
