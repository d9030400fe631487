#!/usr/bin/env node
/**
 * Renders a PDF's pages to PNG with pdfjs-dist and @napi-rs/canvas, in a process of its own (so that a
 * hostile or huge PDF costs this process only: the server kills it at its time limit, and bounds its
 * memory with prlimit, see pdf.ts). The PDF comes in on stdin; argv: maxPages, maxSide (pixels of a
 * page's longer side), maxBytes (all PNGs together), maxImagePixels (a picture inside the PDF: a larger
 * one is never decoded, and the PDF is refused). Out on stdout, one JSON line each:
 *   {"pages": <pages in the PDF>}
 *   {"page": n, "width": w, "height": h, "png": "<base64>"}   (for n = 1 .. min(pages, maxPages))
 * Failures: exit code 2 with {"error": "<code>"} (not-pdf, encrypted, too-large, image-too-large),
 * anything else 1.
 */
import { createCanvas } from '@napi-rs/canvas'
import { createRequire } from 'node:module'
import path from 'node:path'

const [maxPages, maxSide, maxBytes, maxImagePixels] = process.argv.slice(2).map(Number)
const require = createRequire(import.meta.url)
const pdfjsRoot = path.dirname(require.resolve('pdfjs-dist/package.json'))

function fail (code) {
  process.stdout.write(JSON.stringify({ error: code }) + '\n', () => process.exit(2))
}

async function readStdin () {
  const chunks = []
  for await (const c of process.stdin) chunks.push(c)
  return new Uint8Array(Buffer.concat(chunks))
}

// pdfjs reads the size of every picture from its dictionary before decoding it, and with maxImageSize
// leaves out a larger one with this warning (the only word it gives): heard here, it refuses the PDF
let imageTooLarge = false
const warn = console.warn
console.warn = (...args) => {
  if (args.some(a => typeof a === 'string' && a.includes('Image exceeded maximum allowed size'))) imageTooLarge = true
  else if (process.env.PDF_RENDER_DEBUG) warn(...args)
}

async function main () {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const data = await readStdin()
  let doc
  try {
    doc = await pdfjs.getDocument({
      data,
      // fonts and maps from the package itself: nothing is fetched, no script in the PDF runs
      standardFontDataUrl: path.join(pdfjsRoot, 'standard_fonts') + path.sep,
      cMapUrl: path.join(pdfjsRoot, 'cmaps') + path.sep,
      cMapPacked: true,
      isEvalSupported: false,
      enableXfa: false,
      disableFontFace: true,
      maxImageSize: maxImagePixels,
      verbosity: 1 // warnings: the one above is how a picture too large is told
    }).promise
  } catch (err) {
    return fail(err && err.name === 'PasswordException' ? 'encrypted' : 'not-pdf')
  }
  process.stdout.write(JSON.stringify({ pages: doc.numPages }) + '\n')
  let total = 0
  for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++) {
    const page = await doc.getPage(n)
    const base = page.getViewport({ scale: 1 })
    const scale = maxSide / Math.max(base.width, base.height)
    const viewport = page.getViewport({ scale })
    const width = Math.max(1, Math.round(viewport.width))
    const height = Math.max(1, Math.round(viewport.height))
    const canvas = createCanvas(width, height)
    const context = canvas.getContext('2d')
    context.fillStyle = '#ffffff'
    context.fillRect(0, 0, width, height)
    await page.render({ canvasContext: context, canvas, viewport }).promise
    if (imageTooLarge) return fail('image-too-large')
    const png = canvas.toBuffer('image/png')
    total += png.length
    if (total > maxBytes) return fail('too-large')
    await new Promise(resolve => process.stdout.write(JSON.stringify({ page: n, width, height, png: png.toString('base64') }) + '\n', resolve))
    page.cleanup()
  }
  await doc.destroy()
}

main().catch(err => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n')
  process.exit(1)
})
