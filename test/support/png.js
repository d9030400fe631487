/**
 * Real PNG files for upload tests: a width x height picture of one colour with a darker band (so that
 * each colour gives different bytes), encoded by hand (signature, IHDR, IDAT through zlib, IEND, each
 * chunk with its CRC-32). Decoders (Chromium, the server's sniffer) read them as images.
 */
const zlib = require('node:zlib')

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
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([len, body, crc])
}

/** A PNG of `width` x `height` in colour [r, g, b]. */
function makePng (width, height, [r, g, b]) {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // truecolour
  const rows = []
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3)
    const band = y > height * 0.6 && y < height * 0.8
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = band ? r >> 1 : r
      row[2 + x * 3] = band ? g >> 1 : g
      row[3 + x * 3] = band ? b >> 1 : b
    }
    rows.push(row)
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))])
}

/** A multipart/form-data body with one file part. */
function multipartBody (field, filename, contentType, bytes, boundary = 'shopTestBoundary7MA4YWxk') {
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`)
  return { body: Buffer.concat([head, bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` }
}

module.exports = { makePng, multipartBody, crc32, chunk }
