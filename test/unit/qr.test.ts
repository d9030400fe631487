/**
 * QR round trip: what src/utils/qr.ts draws (the SVG of H5, the rows of runs of the mini-program) is
 * decoded back with jsQR, the decoder the H5 scanner uses.
 */
import jsQR from 'jsqr'
import fc from 'fast-check'
import { qrMatrix, qrSvg, qrSvgDataUrl, rowRuns, QR_MARGIN, type QrMatrix } from '@/utils/qr'

/** RGBA pixels of a matrix: `scale` pixels a module, a white quiet zone of QR_MARGIN modules. */
function rasterise (m: QrMatrix, scale = 4, margin = QR_MARGIN) {
  const side = (m.length + margin * 2) * scale
  const data = new Uint8ClampedArray(side * side * 4).fill(255)
  m.forEach((row, r) => row.forEach((dark, c) => {
    if (!dark) return
    for (let y = 0; y < scale; y++) {
      for (let x = 0; x < scale; x++) {
        const i = (((r + margin) * scale + y) * side + (c + margin) * scale + x) * 4
        data[i] = data[i + 1] = data[i + 2] = 0
      }
    }
  }))
  return { data, side }
}

/** The matrix an SVG from qrSvg draws, read back from its path (M x y h w v1 h-w z per run). */
function matrixOfSvg (svg: string, n: number, margin = QR_MARGIN): QrMatrix {
  const m: QrMatrix = Array.from({ length: n }, () => Array(n).fill(false))
  const d = /<path[^>]* d="([^"]*)"/.exec(svg)![1]
  for (const [, x, y, w] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
    for (let i = 0; i < Number(w); i++) m[Number(y) - margin][Number(x) - margin + i] = true
  }
  return m
}

const decode = (m: QrMatrix) => {
  const { data, side } = rasterise(m)
  return jsQR(data, side, side)?.data
}

const slipUrl = 'http://127.0.0.1:3000/pagesA/prize_detail/index?prizeId=1234&verify=Ab3_x-9QrT5uVw8yZ0kLm2'

describe('QR codes', () => {
  it('a packing slip link round-trips through the matrix and the decoder', () => {
    const m = qrMatrix(slipUrl)
    expect(m.length).toBe(41) // version 6 at error correction M
    expect(m.every(row => row.length === m.length)).toBe(true)
    expect(decode(m)).toBe(slipUrl)
  })

  it('the SVG draws exactly the matrix, and its data URL needs no base64', () => {
    const m = qrMatrix(slipUrl)
    const svg = qrSvg(m)
    expect(svg).toContain(`viewBox="0 0 ${m.length + 8} ${m.length + 8}"`)
    expect(matrixOfSvg(svg, m.length)).toEqual(m)
    expect(decode(matrixOfSvg(svg, m.length))).toBe(slipUrl)
    const url = qrSvgDataUrl(m)
    expect(url.startsWith('data:image/svg+xml;charset=utf-8,%3Csvg')).toBe(true)
    expect(decodeURIComponent(url.slice(url.indexOf(',') + 1))).toBe(svg)
  })

  it('the mini-program rows of runs rebuild the matrix', () => {
    const m = qrMatrix(slipUrl)
    const rebuilt = m.map(row => rowRuns(row).flatMap(run => Array(run.length).fill(run.dark)))
    expect(rebuilt).toEqual(m)
    // far fewer nodes than one View a module
    const nodes = m.reduce((sum, row) => sum + rowRuns(row).length, 0)
    expect(nodes).toBeLessThan(m.length * m.length / 2)
  })

  it('any text, Chinese included, round-trips (UTF-8 in byte mode)', () => {
    expect(decode(qrMatrix('拾盒 · 隐藏款 #7'))).toBe('拾盒 · 隐藏款 #7')
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 120, unit: 'grapheme-ascii' }), (s) => {
      expect(decode(qrMatrix(s))).toBe(s)
    }), { numRuns: 40 })
  })
})
