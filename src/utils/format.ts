/** Money (integer cents) and odds (ppm) as people read them. */
import type { I18nText } from '~types/shop'
import { localeStore } from '@/stores/locale'

/** ¥5,000.00: yuan with thousands separators (written out: Intl is not everywhere in mini-programs). */
export function formatCents (cents: number, { sign = false } = {}): string {
  const abs = Math.abs(cents)
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  const yuan = `${whole}.${String(abs % 100).padStart(2, '0')}`
  const prefix = cents < 0 ? '-' : sign && cents > 0 ? '+' : ''
  return `${prefix}¥${yuan}`
}

/**
 * The type of a money field: the mini-program's digit keyboard has no sign or exponent keys; in a
 * browser a number field silently drops what it does not like (a typed '-5' became 5, '1e3' 13), so
 * H5 takes text and parseYuan refuses anything that is not a plain amount.
 */
export const AMOUNT_INPUT_TYPE: 'text' | 'digit' = process.env.TARO_ENV === 'h5' ? 'text' : 'digit'
/** The same for a whole number (a count): text in a browser, read by parseWhole. */
export const WHOLE_INPUT_TYPE: 'text' | 'number' = process.env.TARO_ENV === 'h5' ? 'text' : 'number'

/** A plain whole number of at most `digits` digits ('3' -> 3); a sign, decimals or anything else is null. */
export function parseWhole (input: string, digits = 9): number | null {
  const s = input.trim()
  return new RegExp(`^\\d{1,${digits}}$`).test(s) ? Number(s) : null
}

/**
 * A plain amount in yuan to cents: '12.5' -> 1250, '0' -> 0, '99999999' -> 9999999900. Anything else
 * is null: signs, exponents, separators, spaces inside, more than 2 decimals (a pasted '-5' or '1e3'
 * is refused, never read as 5 or 13). Ranges are the caller's to check, with their own message.
 */
export function parseYuan (input: string): number | null {
  const s = input.trim()
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(s)) return null
  const [int, frac = ''] = s.split('.')
  return Number(int) * 100 + Number(frac.padEnd(2, '0'))
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

/** A design picture's accessible name: the operator's description of it, else the design's name. */
export function designLabel (design: { name: I18nLike; alt?: I18nLike }): string {
  return (design.alt && tr(design.alt).trim()) || tr(design.name)
}
type I18nLike = { zh: string; en: string }

/** The props an Image takes for screen readers (imgProps: the H5 <img> inside Taro's Image box). */
export interface A11yImageProps {
  'aria-label'?: string
  'aria-hidden'?: boolean
  role?: string
  imgProps?: { alt: string }
}

/**
 * What makes a picture readable: its name for screen readers (aria-label; WeChat reads it too), the
 * image role on H5, where Taro's Image is a box around an <img>, and that <img>'s alt.
 */
export function a11yImage (label: string): A11yImageProps {
  if (process.env.TARO_ENV !== 'h5') return { 'aria-label': label }
  return { 'aria-label': label, role: 'img', imgProps: { alt: label } }
}

/**
 * A picture that says nothing the text beside it does not (a design's thumbnail next to its name):
 * screen readers skip it (an empty alt on H5, aria-hidden on both builds).
 */
export function decorativeImage (): A11yImageProps {
  if (process.env.TARO_ENV !== 'h5') return { 'aria-hidden': true }
  return { 'aria-hidden': true, imgProps: { alt: '' } }
}

/**
 * A tappable View or Text as a control for screen readers: its role (on H5 `role`, in the mini-program
 * WeChat's `aria-role`) and, for a control that shows only an icon or an emoji, its name.
 */
export function a11yControl (label?: string, role = 'button'): Record<string, string> {
  const named: Record<string, string> = label ? { 'aria-label': label } : {}
  return process.env.TARO_ENV === 'h5' ? { role, ...named } : { 'aria-role': role, ...named }
}

/** An emoji or sign that only decorates the words beside it: screen readers skip it. */
export const A11Y_HIDDEN = { 'aria-hidden': true } as const

/**
 * A phone number as a screen shows it where it may be read over the shopper's shoulder (issue 48):
 * "138****8000", the first three and last four digits, as the server masks it (domain/users.ts
 * maskPhone). Anything that is not a number of 7 digits or more is shown as it is.
 */
export function maskPhone (phone: string | null | undefined): string {
  const p = (phone ?? '').trim()
  if (!/^\+?[\d\s-]{7,}$/.test(p)) return p
  // a mainland number written with its country code (+86, 0086) is masked as the 11 digits
  const digits = p.replace(/\D/g, '').replace(/^(0086|86)(?=1\d{10}$)/, '')
  return `${digits.slice(0, 3)}****${digits.slice(-4)}`
}
