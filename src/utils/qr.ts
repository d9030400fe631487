/**
 * QR codes in plain TypeScript for both builds: qrcode-generator computes the module matrix (no DOM,
 * no canvas), and this file turns it into what each platform draws: an SVG data URL for an <img> on
 * H5, and rows of dark/light runs for a grid of Views in the mini-program.
 */
import qrcode from 'qrcode-generator'
import { utf8 } from './sha256'

/** Error correction M (15 %): a slip's link (about 90 characters) fits a 41-module code. */
export const QR_ERROR_CORRECTION = 'M'
/** The quiet zone every reader expects around a code, in modules. */
export const QR_MARGIN = 4

/** true = dark module; rows top to bottom. */
export type QrMatrix = boolean[][]

/** The module matrix of a text (UTF-8 in byte mode, the smallest version that fits). */
export function qrMatrix (text: string): QrMatrix {
  const qr = qrcode(0, QR_ERROR_CORRECTION)
  // The library maps each UTF-16 unit to one byte (& 0xff): hand it the UTF-8 bytes as such units.
  qr.addData(String.fromCharCode(...utf8(text)), 'Byte')
  qr.make()
  const n = qr.getModuleCount()
  const rows: QrMatrix = []
  for (let r = 0; r < n; r++) {
    const row: boolean[] = []
    for (let c = 0; c < n; c++) row.push(qr.isDark(r, c))
    rows.push(row)
  }
  return rows
}

/** The SVG of a matrix: one path, one unit per module, a white quiet zone, crisp edges. */
export function qrSvg (matrix: QrMatrix, margin = QR_MARGIN): string {
  const size = matrix.length + margin * 2
  let d = ''
  matrix.forEach((row, r) => {
    for (const run of rowRuns(row)) {
      if (run.dark) d += `M${run.start + margin} ${r + margin}h${run.length}v1h-${run.length}z`
    }
  })
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${d}"/></svg>`
}

/** An <img>-ready data URL of the SVG (percent-encoded: no base64, no btoa needed). */
export function qrSvgDataUrl (matrix: QrMatrix): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(qrSvg(matrix))}`
}

export interface QrRun { start: number; length: number; dark: boolean }

/** A row as runs of equal modules: a View per run keeps the mini-program's node count low. */
export function rowRuns (row: boolean[]): QrRun[] {
  const runs: QrRun[] = []
  row.forEach((dark, i) => {
    const last = runs[runs.length - 1]
    if (last && last.dark === dark) last.length++
    else runs.push({ start: i, length: 1, dark })
  })
  return runs
}
