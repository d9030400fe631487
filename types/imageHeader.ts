/**
 * What an image file really is, read from its header bytes (never from its name or the declared type,
 * and without decoding a pixel): PNG (IHDR), JPEG (the start-of-frame segment), WebP (VP8, VP8L or VP8X)
 * or GIF (the logical screen, widened to every frame's extent), with the picture's width and height.
 * Anything else (or a truncated header) is null. Pure TypeScript: the server checks uploads with it, the
 * phone checks a photo before it lets the browser decode it (a 150 KB PNG can claim 30000 x 30000,
 * 3.6 GB once decoded).
 */
import { IMAGE_MAX_PIXELS } from './limits'

export interface ImageInfo { contentType: 'image/png' | 'image/jpeg' | 'image/webp' | 'image/gif'; ext: 'png' | 'jpg' | 'webp' | 'gif'; width: number; height: number }

const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to))
const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1]
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8)
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16)
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + ((b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3])

function png (b: Uint8Array): ImageInfo | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
  if (b.length < 24 || signature.some((x, i) => b[i] !== x) || ascii(b, 12, 16) !== 'IHDR') return null
  return { contentType: 'image/png', ext: 'png', width: u32be(b, 16), height: u32be(b, 20) }
}

/** Skips a run of GIF sub-blocks (each a length byte and that many bytes, ended by a 0): the index after, or -1. */
function gifSubBlocks (b: Uint8Array, i: number): number {
  while (i < b.length) {
    const n = b[i]
    if (n === 0) return i + 1
    i += 1 + n
  }
  return -1
}

function gif (b: Uint8Array): ImageInfo | null {
  if (b.length < 13 || !/^GIF8[79]a$/.test(ascii(b, 0, 6))) return null
  // a frame may reach beyond the logical screen, and decoders then draw a larger canvas: take the widest
  let width = u16le(b, 6)
  let height = u16le(b, 8)
  let i = 13 + (b[10] & 0x80 ? 3 * (2 << (b[10] & 7)) : 0)
  while (i > 0 && i < b.length) {
    if (b[i] === 0x3b) break // trailer
    if (b[i] === 0x21) { i = gifSubBlocks(b, i + 2); continue } // extension: label, then sub-blocks
    if (b[i] !== 0x2c || i + 10 > b.length) break // not an image descriptor: what follows is not read
    width = Math.max(width, u16le(b, i + 1) + u16le(b, i + 5))
    height = Math.max(height, u16le(b, i + 3) + u16le(b, i + 7))
    const flags = b[i + 9]
    i += 10 + (flags & 0x80 ? 3 * (2 << (flags & 7)) : 0) + 1 // local colour table, LZW code size
    i = gifSubBlocks(b, i)
  }
  return { contentType: 'image/gif', ext: 'gif', width, height }
}

function jpeg (b: Uint8Array): ImageInfo | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null
  // walk the segments to a start-of-frame (SOF0-SOF15 but DHT C4, JPG C8 and DAC CC)
  let i = 2
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null
    const marker = b[i + 1]
    if (marker === 0xff) { i++; continue }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { i += 2; continue }
    const length = u16be(b, i + 2)
    if (length < 2) return null
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { contentType: 'image/jpeg', ext: 'jpg', width: u16be(b, i + 7), height: u16be(b, i + 5) }
    }
    if (marker === 0xda || marker === 0xd9) return null
    i += 2 + length
  }
  return null
}

function webp (b: Uint8Array): ImageInfo | null {
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 12) !== 'WEBP') return null
  const chunk = ascii(b, 12, 16)
  const out = (width: number, height: number): ImageInfo => ({ contentType: 'image/webp', ext: 'webp', width, height })
  if (chunk === 'VP8X') return out(u24le(b, 24) + 1, u24le(b, 27) + 1)
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return null
    return out(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff)
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null
    const bits = b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)
    return out((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1)
  }
  return null
}

/** The image the bytes hold, or null when they are not a PNG, JPEG, WebP or GIF picture of some size. */
export function sniffImage (bytes: Uint8Array): ImageInfo | null {
  const info = png(bytes) ?? jpeg(bytes) ?? gif(bytes) ?? webp(bytes)
  if (!info || info.width < 1 || info.height < 1) return null
  return info
}

/** Whether a picture of that size may be kept and shown: at most IMAGE_MAX_PIXELS once decoded. */
export const withinPixelLimit = (info: { width: number; height: number }): boolean => info.width * info.height <= IMAGE_MAX_PIXELS
