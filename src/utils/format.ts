/** Money (integer cents) and odds (ppm) as people read them. */
import type { I18nText } from '~types/shop'
import { localeStore } from '@/stores/locale'

export function formatCents (cents: number, { sign = false } = {}): string {
  const abs = Math.abs(cents)
  const yuan = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
  const prefix = cents < 0 ? '-' : sign && cents > 0 ? '+' : ''
  return `${prefix}¥${yuan}`
}

/** '12.5' -> 1250; null for anything that is not a positive amount with at most 2 decimals. */
export function parseYuan (input: string): number | null {
  const s = input.trim()
  if (!/^\d{1,7}(\.\d{1,2})?$/.test(s)) return null
  const [int, frac = ''] = s.split('.')
  const cents = Number(int) * 100 + Number(frac.padEnd(2, '0'))
  return cents > 0 ? cents : null
}

/** 150000 ppm -> '15%'; 1389 -> '0.139%'; at most 3 significant decimals, never rounded to 0. */
export function formatPpm (ppm: number): string {
  if (ppm <= 0) return '0%'
  const pct = ppm / 10000
  const digits = pct >= 10 ? 1 : pct >= 1 ? 2 : 3
  let text = pct.toFixed(digits).replace(/\.?0+$/, '')
  if (text === '0') text = `<${(1 / 10 ** digits).toFixed(digits)}`
  return `${text}%`
}

/** The text of an I18nText in the current language. */
export const tr = (text: I18nText | undefined | null): string => (text ? text[localeStore.locale] ?? text.en : '')

export function formatTime (iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
