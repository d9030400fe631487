#!/usr/bin/env node
/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to every compressible file of the H5 build, so the
 * server sends compressed bytes without compressing per request (server/src/http/static.ts serves
 * them by Accept-Encoding, with `Vary: Accept-Encoding`).
 *
 * Used three ways: as a webpack plugin of the H5 build (config/index.ts), so every build and rebuild
 * carries its compressed copies; by `npm start` for a build made before this existed; and by hand:
 *   node scripts/precompress.js [dir=dist/h5]
 *
 * A copy is kept only when it is smaller than the file; an existing copy newer than its file is kept.
 */
const fs = require('node:fs')
const path = require('node:path')
const zlib = require('node:zlib')

/** What is worth compressing: text formats. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|map|ico)$/
/** Below this a compressed copy saves less than a network packet. */
const MIN_BYTES = 1024

function compressBuffer (data) {
  return {
    br: zlib.brotliCompressSync(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length
      }
    }),
    gz: zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION })
  }
}

function * walk (dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) yield * walk(p)
    else if (entry.isFile()) yield p
  }
}

function upToDate (copy, stat) {
  try {
    return fs.statSync(copy).mtimeMs >= stat.mtimeMs
  } catch {
    return false
  }
}

/** Compresses every compressible file under dir; answers what it wrote (bytes before and after). */
function precompressDir (dir) {
  const summary = { files: 0, bytes: 0, br: 0, gz: 0 }
  if (!fs.existsSync(dir)) return summary
  for (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue
    const stat = fs.statSync(file)
    const stale = []
    for (const ext of ['br', 'gz']) {
      const copy = `${file}.${ext}`
      if (stat.size < MIN_BYTES) fs.rmSync(copy, { force: true })
      else if (!upToDate(copy, stat)) stale.push(ext)
    }
    if (stat.size < MIN_BYTES) continue
    summary.files++
    summary.bytes += stat.size
    if (stale.length) {
      const data = fs.readFileSync(file)
      const out = compressBuffer(data)
      for (const ext of stale) {
        const copy = `${file}.${ext}`
        if (out[ext].length < data.length) fs.writeFileSync(copy, out[ext])
        else fs.rmSync(copy, { force: true })
      }
    }
    for (const ext of ['br', 'gz']) {
      try { summary[ext] += fs.statSync(`${file}.${ext}`).size } catch { summary[ext] += stat.size }
    }
  }
  return summary
}

/** The webpack plugin: after the build has written its files, compress them. */
class PrecompressPlugin {
  apply (compiler) {
    compiler.hooks.afterEmit.tap('precompress', compilation => {
      const dir = compilation.outputOptions.path || compiler.outputPath
      precompressDir(dir)
    })
  }
}

module.exports = { precompressDir, compressBuffer, PrecompressPlugin, COMPRESSIBLE, MIN_BYTES }

if (require.main === module) {
  const dir = path.resolve(process.argv[2] || path.join(__dirname, '..', 'dist', 'h5'))
  const s = precompressDir(dir)
  const kb = n => (n / 1024).toFixed(1)
  console.log(`precompressed ${s.files} files in ${dir}: ${kb(s.bytes)} KiB -> brotli ${kb(s.br)} KiB, gzip ${kb(s.gz)} KiB`)
}
