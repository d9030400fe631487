/**
 * Accounts: the login form, the shopper's own spending limits and the birth-date correction.
 * Plain constants, no schema code (types/limits.ts re-exports them all).
 */
/** Login form limits (spec 5, 9), checked by the app's forms and by the server's schemas. */
export const LOGIN_LIMITS = {
  userNameMin: 1,
  userNameMax: 100,
  passwordMin: 3,
  passwordMax: 18,
  codeMin: 4,
  codeMax: 6,
  /** Mainland mobile numbers. */
  phonePattern: '^1[3-9]\\d{9}$',
  emailMax: 254
} as const

/**
 * Spending limits (types/security.ts) that contradict each other: a daily limit above the monthly one (both set; null is no limit).
 * Checked on the limits as they will stand once every change applies (the server) and on the form.
 */
export function dailyAboveMonthly (daily: number | null, monthly: number | null): boolean {
  return daily !== null && monthly !== null && daily > monthly
}

/** Account security (issue 10): a raised (or removed) spending limit waits this long before it applies. */
export const LIMIT_RAISE_DELAY_MS = 24 * 60 * 60 * 1000
/** The longest reason for (or note on) a birth-date correction. */
export const CORRECTION_REASON_MAX = 200
