/**
 * Tracking numbers in the text OCR read off a parcel label: the likely ones first, for the operator to
 * confirm. A label also carries phone numbers, dates, postcodes and order numbers, so a candidate is a
 * run of 10 to 30 letters and digits with at least 9 digits (spaces or dashes between digit groups
 * joined), never a mainland mobile number; it ranks higher next to a word that names the waybill
 * (运单号, 单号, Tracking, Waybill...), with a known carrier's shape (SF + 12-15 digits, JD, YT, JT,
 * the UPU S10 shape of EMS), and at the usual 12 to 15 characters.
 */
import { AFTER_DRAW_LIMITS } from '~types/limits'
import type { CommonCarrier } from './shipping'

const TRACKING_RE = new RegExp(AFTER_DRAW_LIMITS.trackingNoPattern)
const LABEL_WORD = /运单|单号|快递单|面单|waybill|tracking|awb|no\.?|号码/i
const PHONE = /^1[3-9]\d{9}$/
const SHAPES: Array<[RegExp, CommonCarrier]> = [
  [/^SF\d{12,15}$/, 'shunfeng'],
  [/^JD[A-Z]{0,2}\d{10,15}$/, 'jd'],
  [/^YT\d{13}$/, 'yuantong'],
  [/^JT\d{13}$/, 'jtexpress'],
  [/^[A-Z]{2}\d{9}[A-Z]{2}$/, 'ems'],
  [/^(7[3-9]|6[0-9])\d{12}$/, 'zhongtong'],
  [/^(43|46|31|32)\d{11}$/, 'yunda'],
  [/^(77|66|55|88)\d{13}$/, 'shentong']
]
const NAMES: Array<[RegExp, CommonCarrier]> = [
  [/顺丰|SF\s*EXPRESS/i, 'shunfeng'], [/圆通|YTO/i, 'yuantong'], [/中通|ZTO/i, 'zhongtong'], [/韵达|YUNDA/i, 'yunda'],
  [/申通|STO\b/i, 'shentong'], [/极兔|J&T/i, 'jtexpress'], [/邮政|EMS/i, 'ems'], [/京东|JD\s*LOGISTICS/i, 'jd']
]

export interface TrackingCandidate { no: string; score: number; carrier: CommonCarrier | null }

/** Full-width letters and digits made ASCII, upper case. */
const plain = (s: string) => s.normalize('NFKC').toUpperCase()

/** The tracking numbers a label's text most likely holds, best first (at most `max`). */
export function trackingCandidates (text: string, max = 3): TrackingCandidate[] {
  const lines = plain(text).split(/\r?\n/)
  const found = new Map<string, TrackingCandidate>()
  lines.forEach((line, i) => {
    // digit groups split by a space or a dash are one number ("SF 1402 3398-2715 6")
    const joined = line.replace(/(\d|\b(?:SF|JD[A-Z]{0,2}|YT|JT))[ -]+(?=\d)/g, '$1')
    const near = LABEL_WORD.test(line) || (i > 0 && LABEL_WORD.test(lines[i - 1]) && !/\d{6,}/.test(lines[i - 1]))
    for (const m of joined.matchAll(/[A-Z0-9]{10,30}/g)) {
      const no = m[0]
      const digits = (no.match(/\d/g) ?? []).length
      if (digits < 9 || no.length < 10 || PHONE.test(no) || !TRACKING_RE.test(no)) continue
      const shape = SHAPES.find(([re]) => re.test(no))
      let score = 1
      if (near) score += 3
      if (shape) score += 2
      if (no.length >= 12 && no.length <= 15) score += 1
      if (/^\d{8}$|^20\d{6}/.test(no)) score -= 1 // looks like a date first
      const prev = found.get(no)
      if (!prev || prev.score < score) found.set(no, { no, score, carrier: shape?.[1] ?? null })
    }
  })
  // a carrier named on the label decides for numbers without a shape of their own
  const named = NAMES.find(([re]) => re.test(plain(text)))?.[1] ?? null
  return [...found.values()]
    .map(c => ({ ...c, carrier: c.carrier ?? named }))
    .sort((a, b) => b.score - a.score || b.no.length - a.no.length)
    .slice(0, max)
}
