/** Login and register form rules (spec 5). Each returns a message key, or null when valid. */
import { LOGIN_LIMITS } from '~types/limits'
import { hasInvisibleChars } from '~types/invisibleChars'
import type { MessageKey } from '@/locales/types'
import {
  CODE_MAX, CODE_MIN, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX, USERNAME_MIN
} from '@/constants'

export const PHONE_RE = new RegExp(LOGIN_LIMITS.phonePattern)
export const EMAIL_RE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/

const len = (s: string) => Array.from(s).length

export type Check = MessageKey | null

export const checkUsername = (v: string): Check =>
  len(v.trim()) < USERNAME_MIN || len(v.trim()) > USERNAME_MAX ? 'login.usernameLength' : null

/**
 * A user name to register: the length rule, and no invisible character (types/invisibleChars.ts, the
 * server's rule too): "al\u200bice" would read as "alice". Login keeps checkUsername, so an account
 * registered with one before still logs in.
 */
export const checkNewUsername = (v: string): Check =>
  checkUsername(v) ?? (hasInvisibleChars(v.trim()) ? 'login.usernameInvisible' : null)

export const checkPassword = (v: string): Check => {
  if (!v) return 'login.needPassword'
  return len(v) < PASSWORD_MIN || len(v) > PASSWORD_MAX ? 'login.passwordLength' : null
}

export const checkCode = (v: string): Check =>
  len(v.trim()) < CODE_MIN || len(v.trim()) > CODE_MAX ? 'login.codeLength' : null

/**
 * A mainland mobile number as people write it, as the 11 digits the server takes: spaces, dashes,
 * dots and brackets between digits go, and a leading +86, 0086 or 86 country code with them
 * ("+86 138 0000 0000" -> "13800000000"). Anything else (letters, another country, too few digits)
 * is null: refused, never trimmed into some other number.
 */
export function normalizePhone (v: string): string | null {
  const s = v.trim()
  // separators only between digits (or after a "+86" / "(+86)" prefix): "-138..." is not a number written out
  if (!/^(\+|\(\+?|（\+?)?\d/.test(s) || !/\d$/.test(s)) return null
  const compact = s.replace(/[\s\-.()（）]/g, '')
  const national = compact.replace(/^(\+86|0086|86)(?=1\d{10}$)/, '')
  return PHONE_RE.test(national) ? national : null
}

/**
 * The input type of a phone field: in a browser a number field silently drops a typed "+" (and its
 * maxlength cut "+86 138 ..." to other digits), so H5 takes text and normalizePhone reads it.
 */
export const PHONE_INPUT_TYPE: 'text' | 'number' = process.env.TARO_ENV === 'h5' ? 'text' : 'number'
/** Room for "+86 138 0000 0000" and the like. */
export const PHONE_INPUT_MAX = 20

export const checkPhone = (v: string): Check => (normalizePhone(v) ? null : 'login.phoneInvalid')
export const checkEmail = (v: string): Check => (EMAIL_RE.test(v.trim()) ? null : 'login.emailInvalid')
export const checkAgreed = (agreed: boolean): Check => (agreed ? null : 'login.agreeRequired')

export type AccountKind = 'phone' | 'email' | 'user_name'

/** A password-login account is a phone number, an e-mail address or a user name. */
export function accountKind (v: string): AccountKind {
  const s = v.trim()
  if (PHONE_RE.test(s)) return 'phone'
  if (s.includes('@')) return 'email'
  return 'user_name'
}

export const checkAccount = (v: string): Check => {
  if (!v.trim()) return 'login.needAccount'
  const kind = accountKind(v)
  if (kind === 'email') return checkEmail(v)
  if (kind === 'user_name') return checkUsername(v)
  return null
}

export type LoginMode = 'password' | 'sms' | 'email' | 'register'

export interface LoginForm {
  account: string
  phone: string
  email: string
  password: string
  code: string
  agreed: boolean
  /** Register: which identity the new account is keyed by. */
  registerBy: AccountKind
}

export type FieldName = 'account' | 'phone' | 'email' | 'password' | 'code' | 'agreed'
export type FieldErrors = Partial<Record<FieldName, MessageKey>>

/** Validates the fields a mode uses; the agreement check is last so field errors show first. */
export function validateLogin (mode: LoginMode, f: LoginForm): FieldErrors {
  const errors: FieldErrors = {}
  const put = (field: FieldName, c: Check) => { if (c) errors[field] = c }
  if (mode === 'password') {
    put('account', checkAccount(f.account))
    put('password', checkPassword(f.password))
  } else if (mode === 'sms') {
    put('phone', checkPhone(f.phone))
    put('code', checkCode(f.code))
  } else if (mode === 'email') {
    put('email', checkEmail(f.email))
    put('code', checkCode(f.code))
  } else {
    if (f.registerBy === 'phone') { put('phone', checkPhone(f.phone)); put('code', checkCode(f.code)) }
    if (f.registerBy === 'email') { put('email', checkEmail(f.email)); put('code', checkCode(f.code)) }
    if (f.registerBy === 'user_name') put('account', checkNewUsername(f.account))
    put('password', checkPassword(f.password))
  }
  put('agreed', checkAgreed(f.agreed))
  return errors
}
