#!/usr/bin/env node
/**
 * Scales a picture down to at most `maxPixels` (argv) pixels, keeping its proportions, as a greyscale-
 * friendly PNG for the OCR engine: a large picture costs the engine time in proportion to its pixels
 * (23 megapixels of small print: over a minute), a smaller one of the same text far less. Runs in a
 * process of its own under a memory limit and a time limit (providers/ocr.ts); the picture (PNG, JPEG,
 * WebP or GIF, already checked against IMAGE_MAX_PIXELS by its header) comes in on stdin, the PNG goes
 * out on stdout. A picture that does not decode: exit code 2.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas'

const maxPixels = Number(process.argv[2])

async function main () {
  const chunks = []
  for await (const c of process.stdin) chunks.push(c)
  let image
  try {
    image = await loadImage(Buffer.concat(chunks))
  } catch {
    process.exit(2)
  }
  if (!image.width || !image.height) process.exit(2)
  const scale = Math.min(1, Math.sqrt(maxPixels / (image.width * image.height)))
  const width = Math.max(1, Math.floor(image.width * scale))
  const height = Math.max(1, Math.floor(image.height * scale))
  const canvas = createCanvas(width, height)
  const g = canvas.getContext('2d')
  g.fillStyle = '#ffffff' // a transparent background reads as white, as the engine sees it
  g.fillRect(0, 0, width, height)
  g.imageSmoothingEnabled = true
  g.imageSmoothingQuality = 'high'
  g.drawImage(image, 0, 0, width, height)
  process.stdout.write(canvas.toBuffer('image/png'))
}

main().catch(err => {
  process.stderr.write(String(err && err.stack ? err.stack : err) + '\n')
  process.exit(1)
})
