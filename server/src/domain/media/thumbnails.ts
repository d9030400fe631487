/**
 * Images scaled to the width a phone shows them at (GET /media/...?w=N): the smallest of MEDIA_WIDTHS at
 * least N wide, as WebP, never scaled up. An operator's 2 MB photo becomes a few kilobytes in a list of
 * series; the demo art (256 px) becomes 160 px for a card on a 2x phone.
 *
 * Scaled copies are kept in memory, least recently used first out, up to CACHE_BYTES; a copy asked for
 * while it is being made waits for that one (many phones opening home at once make it once). They are
 * made again after a restart, and by each process: the answers are immutable, so a CDN or the phone keeps
 * them. GIFs (possibly animated) and images already narrow enough are answered as they are.
 */
import sharp from 'sharp'
import { IMAGE_MAX_PIXELS, MEDIA_WIDTHS } from '../../../../types/limits'

/** The memory the scaled copies may take, all together. */
export const CACHE_BYTES = 64 * 1024 * 1024
/** WebP quality of the scaled copies: no visible loss at a thumbnail's size. */
const QUALITY = 78

/** The width to serve for a request of `asked` device pixels: the smallest listed width at least that wide. */
export function servedWidth (asked: number): number {
  return MEDIA_WIDTHS.find(w => w >= asked) ?? MEDIA_WIDTHS[MEDIA_WIDTHS.length - 1]
}

export interface Scaled { data: Buffer, contentType: string }

const cache = new Map<string, Scaled>()
let cachedBytes = 0
const making = new Map<string, Promise<Scaled | null>>()
/** Copies found not worth making (the original is as small), so that they are not tried again. */
const asIs = new Set<string>()
const AS_IS_MAX = 10000

function remember (key: string, value: Scaled): void {
  if (value.data.length > CACHE_BYTES / 8) return
  cache.set(key, value)
  cachedBytes += value.data.length
  for (const [k, v] of cache) {
    if (cachedBytes <= CACHE_BYTES) break
    cache.delete(k)
    cachedBytes -= v.data.length
  }
}

/**
 * The scaled copy of `key` at `width` if one is kept (answered without reading the original again);
 * null when none is, or when the original is answered as it is.
 */
export function keptScaled (key: string, contentType: string, width: number): Scaled | null {
  if (contentType === 'image/gif' || !contentType.startsWith('image/')) return null
  const id = `${key}@${width}`
  const hit = cache.get(id)
  if (!hit) return null
  cache.delete(id)
  cache.set(id, hit)
  return hit
}

/**
 * `original` scaled to `width` (one of MEDIA_WIDTHS) as WebP; null when it should be answered as it is
 * (a GIF, or an image no wider than `width`). `key` names the original (its hash or file name).
 */
export async function scaled (key: string, original: Buffer, contentType: string, width: number): Promise<Scaled | null> {
  if (contentType === 'image/gif' || !contentType.startsWith('image/')) return null
  const id = `${key}@${width}`
  const hit = cache.get(id)
  if (hit) {
    // most recently used goes to the end
    cache.delete(id)
    cache.set(id, hit)
    return hit
  }
  if (asIs.has(id)) return null
  let pending = making.get(id)
  if (!pending) {
    pending = (async () => {
      const image = sharp(original, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' })
      const meta = await image.metadata()
      const data = meta.width && meta.width > width ? await image.resize({ width, withoutEnlargement: true }).webp({ quality: QUALITY }).toBuffer() : null
      // an image narrow enough already, or a scaled copy no smaller than the original, is answered as it is
      if (!data || data.length >= original.length) {
        if (asIs.size >= AS_IS_MAX) asIs.clear()
        asIs.add(id)
        return null
      }
      const value = { data, contentType: 'image/webp' }
      remember(id, value)
      return value
    })().finally(() => making.delete(id))
    making.set(id, pending)
  }
  return pending
}

/** For tests: forget every scaled copy. */
export function clearScaled (): void {
  cache.clear()
  asIs.clear()
  cachedBytes = 0
}
