/**
 * Pictures of text made in a test (for OCR): lines drawn black on white with @napi-rs/canvas in Noto
 * Sans CJK (Debian fonts-noto-cjk; .ci/run installs it), so Chinese and Latin letters both render.
 * Plain JavaScript: the Jest suites and the Chromium e2e both use it.
 */
const fs = require('node:fs')
const { createCanvas, GlobalFonts } = require('@napi-rs/canvas')

const FONT_FILES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Medium.ttc'
]
let family = null
function cjkFamily () {
  if (family) return family
  const file = FONT_FILES.find(f => fs.existsSync(f))
  if (!file) throw new Error('Noto Sans CJK is not installed (apt-get install fonts-noto-cjk)')
  GlobalFonts.registerFromPath(file, 'TestCJK')
  family = 'TestCJK'
  return family
}

/**
 * A PNG (or JPEG) of the lines. `px` is the letter size, `angle` a slight rotation in degrees (a photo
 * is never quite straight), `noise` a share of grey specks.
 */
function renderText (lines, o = {}) {
  const px = o.px ?? 32
  const pad = px
  const width = o.width ?? Math.max(320, Math.ceil(Math.max(...lines.map(l => l.length)) * px * 1.05 + pad * 2))
  const height = o.height ?? Math.ceil(lines.length * px * 1.8 + pad * 2)
  const canvas = createCanvas(width, height)
  const g = canvas.getContext('2d')
  g.fillStyle = o.background ?? '#ffffff'
  g.fillRect(0, 0, width, height)
  if (o.noise) {
    let seed = 7
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648)
    g.fillStyle = '#bbbbbb'
    for (let i = 0; i < width * height * o.noise; i++) g.fillRect(Math.floor(rnd() * width), Math.floor(rnd() * height), 1, 1)
  }
  g.save()
  if (o.angle) { g.translate(width / 2, height / 2); g.rotate((o.angle * Math.PI) / 180); g.translate(-width / 2, -height / 2) }
  g.fillStyle = o.color ?? '#111111'
  g.font = `${px}px ${cjkFamily()}`
  g.textBaseline = 'top'
  lines.forEach((line, i) => g.fillText(line, pad, pad + i * px * 1.8))
  g.restore()
  return canvas.toBuffer(o.type === 'jpeg' ? 'image/jpeg' : 'image/png')
}

module.exports = { renderText }
