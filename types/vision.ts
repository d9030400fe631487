/**
 * Pictures (spec 7, issue 11):
 * - `POST /api/ocr` {file}: the text in an image, read by a local engine (tesseract from Debian,
 *   Chinese and English). The file is the image itself, sent as multipart/form-data like an upload
 *   (an operator photographs a parcel label and nothing needs keeping), and the answer is the text
 *   with its lines and words, each with the engine's confidence (0..100).
 * - `POST /api/pic/pic2word` {file}: what a picture shows, in words, asked of the Dify-compatible AI
 *   with the picture as a `remote_url` file (the provider fetches it, so `file` is the picture's URL,
 *   e.g. an upload's /media/u/... made absolute). No AI configured: "not configured".
 * - `POST /api/pic/word2pic` {text}: a picture drawn from a text by an OpenAI-compatible Images API
 *   (POST {base}/images/generations, self-hostable e.g. with LocalAI), kept like an upload and served
 *   under /media/u/. Operators only (each picture costs the shop and is stored).
 * - `POST /api/upload/image` {file}: a shopper's screenshot for the complaint form, kept like an
 *   operator's upload (same types and size), a few an hour.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { AI_LIMITS, IMAGE_MAX_PIXELS, UPLOAD_FIELD, UPLOAD_MAX_BYTES, UPLOAD_MAX_MB, VISION_LIMITS, WORD2PIC_SIZES } from './limits'
import { EmptyBody, MultilineText, Obj, StringEnum } from './schema'
import { UploadResult } from './editor'

export const OcrWord = Type.Object({
  text: Type.String(),
  /** 0..100, the engine's own figure. */
  confidence: Type.Number(),
  /** Where the word is in the image, in pixels: left, top, width, height. */
  box: Type.Tuple([Type.Integer(), Type.Integer(), Type.Integer(), Type.Integer()])
})
export const OcrLine = Type.Object({
  text: Type.String(),
  /** The mean of its words' confidence. */
  confidence: Type.Number(),
  words: Type.Array(OcrWord)
})
export const OcrResult = Type.Object({
  /** The lines joined by line breaks (Chinese characters without the spaces the engine puts between them). */
  text: Type.String(),
  lines: Type.Array(OcrLine),
  width: Type.Integer(),
  height: Type.Integer(),
  engine: Type.String({ description: 'e.g. tesseract 5.3.0' }),
  languages: Type.Array(Type.String())
})
export type OcrWord = Static<typeof OcrWord>
export type OcrLine = Static<typeof OcrLine>
export type OcrResult = Static<typeof OcrResult>

export const Pic2WordRequest = Obj({
  /** The picture's absolute URL (the AI fetches it). */
  file: Type.String({ format: 'uri', pattern: '^https?://', maxLength: AI_LIMITS.urlMax }),
  /** The language of the answer; absent: the caller's language. */
  lang: Type.Optional(StringEnum(['zh', 'en'] as const))
})
export type Pic2WordRequest = Static<typeof Pic2WordRequest>
export const Pic2WordResult = Type.Object({ text: Type.String() })
export type Pic2WordResult = Static<typeof Pic2WordResult>

export const Word2PicRequest = Obj({
  text: MultilineText({ minLength: 1, maxLength: VISION_LIMITS.promptMax }),
  size: Type.Optional(StringEnum(WORD2PIC_SIZES))
})
export type Word2PicRequest = Static<typeof Word2PicRequest>
export const Word2PicResult = Type.Object({
  /** Where the picture is served (/media/u/<sha-256>.<ext>). */
  url: Type.String(),
  contentType: Type.String(),
  bytes: Type.Integer(),
  width: Type.Integer(),
  height: Type.Integer(),
  /** The prompt as the provider rewrote it, when it says. */
  revisedPrompt: Type.Optional(Type.String())
})
export type Word2PicResult = Static<typeof Word2PicResult>

/** Which helper calls this server can answer now (a page hides what it cannot). */
export const HelpersAvailable = Type.Object({
  /** AiAnalysis, questionRecognize, text2text, textTransform, pic2word (AI_API_KEY). */
  ai: Type.Boolean(),
  /** /api/text/tts (espeak-ng installed, TTS_ENGINE not off). */
  tts: Type.Boolean(),
  /** /api/ocr (tesseract installed with chi_sim and eng, OCR_ENGINE not off). */
  ocr: Type.Boolean(),
  /** /api/pic/word2pic (IMAGE_API_KEY). */
  word2pic: Type.Boolean(),
  /** /api/pdf2image (PDF_ENGINE not off). */
  pdf: Type.Boolean(),
  /** /api/text2video (VIDEO_API_KEY). */
  video: Type.Boolean(),
  /** /api/text2music (MUSIC_API_BASE). */
  music: Type.Boolean(),
  /** /api/bijia_spu_search and /api/bijia_spu_goods_search (JD_UNION_APP_KEY). */
  priceCompare: Type.Boolean(),
  /** /api/queryTickets (JUHE_TRAIN_KEY). */
  tickets: Type.Boolean(),
  /** /api/queryFlight (JUHE_FLIGHT_KEY). */
  flights: Type.Boolean()
})
export type HelpersAvailable = Static<typeof HelpersAvailable>

const tag = 'helpers'
export const visionRoutes = {
  helpers: route({
    method: 'POST', url: '/api/helpers', auth: 'user', tag, body: EmptyBody, data: HelpersAvailable,
    summary: 'Which helper calls are configured here (AI, text to speech, OCR, pictures, PDF, video, music, prices, travel); also the generic method helperFeatures'
  }),
  ocr: route({
    method: 'POST', url: '/api/ocr', auth: 'user', tag, data: OcrResult,
    upload: { field: UPLOAD_FIELD, maxBytes: UPLOAD_MAX_BYTES },
    summary: 'The text in an image, Chinese and English (multipart/form-data, field `file`; local tesseract)',
    description: `PNG, JPEG, WebP or GIF recognised by its bytes, at most ${UPLOAD_MAX_MB} MB and ${IMAGE_MAX_PIXELS} pixels by its header (400/422 naming file); scaled down to ${VISION_LIMITS.ocrMaxPixels} pixels before it is read; 422 naming why when it cannot be read within ${VISION_LIMITS.ocrTimeoutS} s. Each account holds at most one of the engine's places at a time, waiting accounts take turns. 422 "not configured" when no engine is installed (OCR_ENGINE=off, or tesseract missing); 20 a minute per account.`
  }),
  pic2word: route({
    method: 'POST', url: '/api/pic/pic2word', auth: 'user', tag, body: Pic2WordRequest, data: Pic2WordResult,
    summary: 'What a picture shows, in words (the Dify-compatible AI, the picture by URL)',
    description: 'AI_API_BASE, AI_API_KEY; 422 "not configured" without a key; counts against the AI calls\' 20 a minute per account.'
  }),
  word2pic: route({
    method: 'POST', url: '/api/pic/word2pic', auth: 'operator', tag, body: Word2PicRequest, data: Word2PicResult,
    summary: 'A picture drawn from a text (OpenAI-compatible Images API), stored like an upload',
    description: 'IMAGE_API_BASE, IMAGE_API_KEY, IMAGE_MODEL; 422 "not configured" without a key; 10 a minute per operator; the provider\'s refusal is a 422 with its message.'
  }),
  imageUpload: route({
    method: 'POST', url: '/api/upload/image', auth: 'user', tag, data: UploadResult,
    upload: { field: UPLOAD_FIELD, maxBytes: UPLOAD_MAX_BYTES },
    summary: 'A shopper\'s screenshot (multipart/form-data, field `file`), e.g. for a complaint',
    description: `PNG, JPEG, WebP or GIF, recognised by its bytes, at most ${UPLOAD_MAX_MB} MB and ${IMAGE_MAX_PIXELS} pixels (width x height, read from its header: 422 naming file when more); ${VISION_LIMITS.shopperUploadsPerHour} an hour per account. Served under /media/u/.`
  })
}
