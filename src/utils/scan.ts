/**
 * "Scan to check": read the QR of a packing slip and answer the prize and its authenticity code.
 * Mini-program: the platform scanner (camera or album). H5: a photo (taken or picked) decoded with
 * jsQR, which is loaded only when a scan starts, so it is never part of a page's first load.
 */
import Taro from '@tarojs/taro'
import { AFTER_DRAW_LIMITS, IMAGE_MAX_PIXELS } from '~types/limits'
import { sniffImage, withinPixelLimit } from '~types/imageHeader'
import { t } from '@/stores/locale'

/** Spec 9, scanner defaults: frames decoded per second by a live camera scanner. */
export const SCANNER_FPS = 2
/** Spec 9, scanner defaults: where a code may come from. */
export const SCANNER_SCAN_TYPES: readonly ScanType[] = ['camera', 'file']
export type ScanType = 'camera' | 'file'
/** A photo is decoded at this many pixels on its longer side first, then larger if nothing is found. */
export const DECODE_SIDES = [1024, 2048] as const

export type ScanErrorKind = 'canceled' | 'noFile' | 'parse' | 'notPrizeCode'

/** Every failure of a scan, with a message fit to show. */
export class ScanError extends Error {
  constructor (readonly kind: ScanErrorKind, message: string) {
    super(message)
    this.name = 'ScanError'
  }
}

/** Spec 8: "QR parse failed: <reason>". */
export const parseFailed = (reason: string) => new ScanError('parse', t('scan.parseFailed', { reason }))

export interface PrizeCode { prizeId: number; code: string }

const PRIZE_PATH_RE = /^(?:https?:\/\/[^/?#\s]+)?(?:\/[^?#\s]*)?\/pagesA\/prize_detail\/index$/
const PRIZE_ID_RE = /^[1-9]\d{0,14}$/
const VERIFY_CODE_RE = new RegExp(AFTER_DRAW_LIMITS.verifyCodePattern)

function queryParams (query: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const part of query.split('&')) {
    if (!part) continue
    const eq = part.indexOf('=')
    const key = eq < 0 ? part : part.slice(0, eq)
    const value = eq < 0 ? '' : part.slice(eq + 1)
    try {
      out[decodeURIComponent(key)] = decodeURIComponent(value.replace(/\+/g, ' '))
    } catch {
      out[key] = value
    }
  }
  return out
}

/**
 * The prize and code of a packing slip's link (…/pagesA/prize_detail/index?prizeId=N&verify=CODE).
 * Anything else is a ScanError that says what is wrong.
 */
export function parsePrizeCode (text: string): PrizeCode {
  const raw = String(text ?? '').trim().split('#')[0]
  const q = raw.indexOf('?')
  const path = q < 0 ? raw : raw.slice(0, q)
  if (!raw || !PRIZE_PATH_RE.test(path)) throw new ScanError('notPrizeCode', t('scan.notPrizeCode'))
  const params = queryParams(q < 0 ? '' : raw.slice(q + 1))
  const id = params.prizeId ?? ''
  if (!PRIZE_ID_RE.test(id) || !Number.isSafeInteger(Number(id))) throw new ScanError('notPrizeCode', t('scan.badPrizeId'))
  const code = params.verify ?? ''
  if (!VERIFY_CODE_RE.test(code)) throw new ScanError('notPrizeCode', t('scan.badCode'))
  return { prizeId: Number(id), code }
}

/** A QR decoder with jsQR's signature. */
export type QrDecoder = (data: Uint8ClampedArray, width: number, height: number) => { data: string } | null

/** The text of the QR code in RGBA pixels, or a "QR parse failed" error. */
export function decodePixels (decode: QrDecoder, data: Uint8ClampedArray, width: number, height: number): string {
  const found = decode(data, width, height)
  if (!found || !found.data) throw parseFailed(t('scan.noCode'))
  return found.data
}

/** Mini-program: the platform's scanner; "camera and file" means the album is offered too. */
async function scanWithPlatform (): Promise<string> {
  try {
    const res = await Taro.scanCode({ scanType: ['qrCode'], onlyFromCamera: !SCANNER_SCAN_TYPES.includes('file') })
    if (!res.result) throw parseFailed(t('scan.noCode'))
    return res.result
  } catch (e) {
    if (e instanceof ScanError) throw e
    const msg = (e as { errMsg?: string })?.errMsg ?? (e instanceof Error ? e.message : String(e))
    if (/cancel/i.test(msg)) throw new ScanError('canceled', t('scan.canceled'))
    throw parseFailed(msg)
  }
}

/**
 * H5: a file input. With the camera and file scan types the phone offers both taking a photo and
 * picking one; with the camera alone it opens the camera (capture).
 * @h5only
 */
export function pickImage (types: readonly ScanType[] = SCANNER_SCAN_TYPES): Promise<File> {
  return new Promise((resolve, reject) => {
    const input = document.createElement('input')
    input.type = 'file'
    input.accept = 'image/*'
    input.className = 'scan-file-input'
    if (!types.includes('file')) input.setAttribute('capture', 'environment')
    input.style.display = 'none'
    const finish = () => input.remove()
    input.addEventListener('change', () => {
      const file = input.files && input.files[0]
      finish()
      if (file) resolve(file)
      else reject(new ScanError('noFile', t('scan.noFile')))
    })
    input.addEventListener('cancel', () => { finish(); reject(new ScanError('noFile', t('scan.noFile'))) })
    document.body.appendChild(input)
    input.click()
  })
}

/** How much of a photo is read for its header: a JPEG's frame size can follow 64 KB segments of EXIF and colour profile. */
export const HEADER_BYTES = 1024 * 1024

/** A blob's bytes (FileReader: older phone browsers have no Blob.arrayBuffer). @h5only */
function readBytes (blob: Blob): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer))
    reader.onerror = () => reject(parseFailed(t('scan.unreadable')))
    reader.readAsArrayBuffer(blob)
  })
}

/** The "too large" failure of a picture of width x height. */
const tooLarge = (width: number, height: number) =>
  parseFailed(t('scan.tooLarge', { max: IMAGE_MAX_PIXELS.toLocaleString('en-US'), width, height }))

/**
 * Refuses a photo whose header says it is larger than IMAGE_MAX_PIXELS, before the browser decodes it
 * (a 150 KB PNG can claim 30000 x 30000: 3.6 GB once decoded, more than a phone has). A format the
 * header reader does not know is checked by its natural size once loaded, before it is drawn. @h5only
 */
export async function checkPhotoSize (file: Blob): Promise<void> {
  const head = await readBytes(file.slice(0, HEADER_BYTES))
  const info = sniffImage(head)
  if (info && !withinPixelLimit(info)) throw tooLarge(info.width, info.height)
}

/** @h5only */
function loadImage (url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image()
    img.onload = () => resolve(img)
    img.onerror = () => reject(parseFailed(t('scan.unreadable')))
    img.src = url
  })
}

/** Decodes a photo: drawn at 1024 px on its longer side, then at 2048 px if the code was too small. @h5only */
export async function decodeImageFile (file: Blob, decoder: Promise<QrDecoder>): Promise<string> {
  await checkPhotoSize(file)
  const url = URL.createObjectURL(file)
  try {
    const img = await loadImage(url)
    const w0 = img.naturalWidth || img.width
    const h0 = img.naturalHeight || img.height
    if (!w0 || !h0) throw parseFailed(t('scan.unreadable'))
    // the size is known once loaded; the pixels are decoded only when drawn
    if (!withinPixelLimit({ width: w0, height: h0 })) throw tooLarge(w0, h0)
    const decode = await decoder
    let last: unknown = null
    for (const side of DECODE_SIDES) {
      const scale = Math.min(1, side / Math.max(w0, h0))
      const w = Math.max(1, Math.round(w0 * scale))
      const h = Math.max(1, Math.round(h0 * scale))
      const canvas = document.createElement('canvas')
      canvas.width = w
      canvas.height = h
      const ctx = canvas.getContext('2d')
      if (!ctx) throw parseFailed(t('scan.unreadable'))
      ctx.drawImage(img, 0, 0, w, h)
      try {
        return decodePixels(decode, ctx.getImageData(0, 0, w, h).data, w, h)
      } catch (e) {
        last = e
      }
      if (scale === 1) break
    }
    throw last
  } finally {
    URL.revokeObjectURL(url)
  }
}

/**
 * jsQR, fetched when a scan starts (its own chunk); both colour polarities are tried. The condition
 * is a build-time constant, so the mini-program build never sees the import.
 */
export const loadDecoder = (): Promise<QrDecoder> => process.env.TARO_ENV === 'h5'
  ? import(/* webpackChunkName: "jsqr" */ 'jsqr').then(m => {
    const jsQR = m.default
    return (data: Uint8ClampedArray, width: number, height: number) => jsQR(data, width, height, { inversionAttempts: 'attemptBoth' })
  })
  : Promise.reject(new Error('the photo decoder is for H5 only'))

/** @h5only */
async function scanWithPhoto (): Promise<string> {
  // The decoder downloads while the person takes or picks the photo.
  const decoder = loadDecoder()
  decoder.catch(() => undefined)
  const file = await pickImage()
  try {
    return await decodeImageFile(file, decoder)
  } catch (e) {
    if (e instanceof ScanError) throw e
    throw parseFailed(e instanceof Error ? e.message : String(e))
  }
}

/** The raw text of a scanned QR code. */
export function scanText (): Promise<string> {
  if (process.env.TARO_ENV === 'h5') return scanWithPhoto()
  return scanWithPlatform()
}

/** Scan a packing slip's QR: the prize and its authenticity code, or a ScanError. */
export async function scanPrizeCode (): Promise<PrizeCode> {
  return parsePrizeCode(await scanText())
}
