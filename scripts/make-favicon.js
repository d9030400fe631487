#!/usr/bin/env node
/**
 * Draws the shop's icon (the splash logo of src/index.html: a rounded square with the brand's
 * orange-to-pink gradient and a white gift-box mark) and writes src/static/favicon.ico (32 and
 * 16 px PNGs in an ICO container) and src/static/favicon.svg. Run once; the files are committed.
 *   node scripts/make-favicon.js
 */
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')

const FROM = [0xff, 0x7a, 0x59]
const TO = [0xff, 0x3d, 0x77]

/** Coverage (0..1) of pixel (x, y) by a rounded square of size n with corner radius r, 4x4 supersampled. */
function roundedCoverage (x, y, n, r) {
  let hit = 0
  for (let i = 0; i < 4; i++) {
    for (let j = 0; j < 4; j++) {
      const px = x + (i + 0.5) / 4
      const py = y + (j + 0.5) / 4
      const cx = Math.min(Math.max(px, r), n - r)
      const cy = Math.min(Math.max(py, r), n - r)
      if ((px - cx) ** 2 + (py - cy) ** 2 <= r * r) hit++
    }
  }
  return hit / 16
}

/** Whether (px, py) in 0..1 units lies on the white gift mark: a box, its lid and a ribbon. */
function onMark (px, py) {
  const box = px >= 0.27 && px <= 0.73 && py >= 0.47 && py <= 0.76
  const lid = px >= 0.22 && px <= 0.78 && py >= 0.34 && py <= 0.45
  const ribbonGap = Math.abs(px - 0.5) < 0.045
  return (box || lid) && !ribbonGap
}

function drawRgba (n) {
  const px = Buffer.alloc(n * n * 4)
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const a = roundedCoverage(x, y, n, n * 0.29)
      const t = (x + y) / (2 * (n - 1))
      let rgb = FROM.map((c, k) => Math.round(c + (TO[k] - c) * t))
      let mark = 0
      for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) if (onMark((x + (i + 0.5) / 4) / n, (y + (j + 0.5) / 4) / n)) mark++
      mark /= 16
      rgb = rgb.map(c => Math.round(c + (255 - c) * mark))
      const o = (y * n + x) * 4
      px[o] = rgb[0]; px[o + 1] = rgb[1]; px[o + 2] = rgb[2]; px[o + 3] = Math.round(a * 255)
    }
  }
  return px
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
function crc32 (buf) {
  let c = 0xffffffff
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
function chunk (type, data) {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}
function png (n) {
  const rgba = drawRgba(n)
  const raw = Buffer.alloc(n * (n * 4 + 1))
  for (let y = 0; y < n; y++) {
    raw[y * (n * 4 + 1)] = 0 // filter: none
    rgba.copy(raw, y * (n * 4 + 1) + 1, y * n * 4, (y + 1) * n * 4)
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(n, 0); ihdr.writeUInt32BE(n, 4)
  ihdr[8] = 8; ihdr[9] = 6 // 8-bit RGBA
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))
  ])
}
/** An ICO file holding PNG images (supported by every browser since Windows Vista's format). */
function ico (sizes) {
  const images = sizes.map(png)
  const header = Buffer.alloc(6); header.writeUInt16LE(0, 0); header.writeUInt16LE(1, 2); header.writeUInt16LE(sizes.length, 4)
  const dir = Buffer.alloc(16 * sizes.length)
  let offset = 6 + dir.length
  sizes.forEach((n, i) => {
    const e = i * 16
    dir[e] = n % 256; dir[e + 1] = n % 256; dir[e + 2] = 0; dir[e + 3] = 0
    dir.writeUInt16LE(1, e + 4); dir.writeUInt16LE(32, e + 6)
    dir.writeUInt32LE(images[i].length, e + 8); dir.writeUInt32LE(offset, e + 12)
    offset += images[i].length
  })
  return Buffer.concat([header, dir, ...images])
}

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#ff7a59"/><stop offset="1" stop-color="#ff3d77"/></linearGradient></defs><rect width="64" height="64" rx="18.5" fill="url(#g)"/><path fill="#fff" d="M14 22h15v7H14zM35 22h15v7H35zM17.5 30h11.5v18.6H17.5zM35 30h11.5v18.6H35z"/></svg>
`

const out = path.resolve(__dirname, '..', 'src', 'static')
fs.mkdirSync(out, { recursive: true })
fs.writeFileSync(path.join(out, 'favicon.ico'), ico([32, 16]))
fs.writeFileSync(path.join(out, 'favicon.svg'), SVG)
console.log(`wrote ${path.join(out, 'favicon.ico')} and favicon.svg`)
