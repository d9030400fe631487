/**
 * Hostile pictures: small files whose headers claim a picture far larger than any phone should decode,
 * in every format the shop accepts. Each is a well-formed start of its format (decoders read the size
 * from it), with only a little compressed data after, so the files stay a few hundred bytes.
 */
const zlib = require('node:zlib')
const { chunk: pngChunk } = require('./png')

/** A PNG whose IHDR says width x height (8-bit greyscale), with the first rows of zeros deflated. */
function pngClaiming (width, height) {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 0
  const rows = zlib.deflateSync(Buffer.alloc(Math.min(height, 16) * (width + 1)))
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', rows), pngChunk('IEND', Buffer.alloc(0))])
}

/** A JPEG whose start-of-frame says width x height, after an APP1 (EXIF-like) segment of `appBytes`. */
function jpegClaiming (width, height, appBytes = 0) {
  const parts = [Buffer.from([0xff, 0xd8])]
  if (appBytes > 0) {
    const app = Buffer.alloc(4 + appBytes)
    app[0] = 0xff; app[1] = 0xe1; app.writeUInt16BE(appBytes + 2, 2)
    parts.push(app)
  }
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0, 0, 0, 0, 0x01, 0x01, 0x11, 0x00])
  sof.writeUInt16BE(height, 5)
  sof.writeUInt16BE(width, 7)
  parts.push(sof, Buffer.from([0xff, 0xd9]))
  return Buffer.concat(parts)
}

/** A GIF with a small logical screen and one frame placed at (left, top) of frameW x frameH. */
function gifWithFrame (screenW, screenH, left, top, frameW, frameH) {
  const head = Buffer.alloc(13)
  head.write('GIF89a', 0, 'ascii')
  head.writeUInt16LE(screenW, 6); head.writeUInt16LE(screenH, 8)
  head[10] = 0x80 // a global colour table of 2 entries
  const table = Buffer.from([0, 0, 0, 255, 255, 255])
  const gce = Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00])
  const desc = Buffer.alloc(10)
  desc[0] = 0x2c
  desc.writeUInt16LE(left, 1); desc.writeUInt16LE(top, 3); desc.writeUInt16LE(frameW, 5); desc.writeUInt16LE(frameH, 7)
  const data = Buffer.from([0x02, 0x02, 0x4c, 0x01, 0x00]) // LZW code size 2, one sub-block, end
  return Buffer.concat([head, table, gce, desc, data, Buffer.from([0x3b])])
}

/** A WebP (extended, VP8X) whose canvas is width x height. */
function webpClaiming (width, height) {
  const vp8x = Buffer.alloc(10)
  vp8x.writeUIntLE(width - 1, 4, 3)
  vp8x.writeUIntLE(height - 1, 7, 3)
  const chunk = Buffer.concat([Buffer.from('VP8X', 'ascii'), Buffer.from([10, 0, 0, 0]), vp8x, Buffer.alloc(12)])
  const riff = Buffer.alloc(12)
  riff.write('RIFF', 0, 'ascii'); riff.writeUInt32LE(4 + chunk.length, 4); riff.write('WEBP', 8, 'ascii')
  return Buffer.concat([riff, chunk])
}

module.exports = { pngClaiming, jpegClaiming, gifWithFrame, webpClaiming }
