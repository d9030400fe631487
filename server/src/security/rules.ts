/**
 * Every rate limit of the server, in one place (each has a test in test/server/rate-limits.test.ts).
 * Windows are short so that an attacker is slowed without locking the real owner out for long.
 */
import type { RateRule } from './rateLimiter'
import { SHOP_LIMITS } from '../../../types/limits'

const SECOND = 1000
const MINUTE = 60 * SECOND
const HOUR = 60 * MINUTE

export const RULES = {
  /** One code per phone number or address per minute (the client counts down 60 s). */
  codeSendPerTarget: { name: 'code-target', limit: 1, periodMs: MINUTE },
  /** And at most 10 codes a day to one phone number or address. */
  codeSendPerTargetDaily: { name: 'code-target-day', limit: 10, periodMs: 24 * HOUR },
  /** At most 10 codes an hour requested from one IP, whatever the targets. */
  codeSendPerIp: { name: 'code-ip', limit: 10, periodMs: HOUR },
  /** Login attempts of every kind from one IP: 30 at once, then one every 2 s. */
  loginPerIp: { name: 'login-ip', limit: 30, periodMs: MINUTE },
  /** Password attempts on one account from one IP: 5, then one a minute; refunded on success. */
  passwordPerAccountAndIp: { name: 'pw-acct-ip', limit: 5, periodMs: 5 * MINUTE },
  /**
   * Password attempts on one account (whichever identifier names it) from anywhere: 10, then one every
   * 90 s; refunded on success. The lock-out an attacker can cause is that short, and code login (SMS,
   * e-mail) does not count against it, so the owner always has a way in.
   */
  passwordPerAccount: { name: 'pw-acct', limit: 10, periodMs: 15 * MINUTE },
  /** Registrations from one IP. */
  registerPerIp: { name: 'register-ip', limit: 10, periodMs: HOUR },
  /** Mini-program URL links from one IP (each costs a WeChat API call). */
  mpUrlPerIp: { name: 'mp-url-ip', limit: 20, periodMs: MINUTE },
  /** Spreadsheet exports from one IP (each builds a workbook of up to 5,000 rows). */
  exportPerIp: { name: 'export-ip', limit: 10, periodMs: MINUTE },
  /** Order numbers issued to one user (each is a row until it is used). */
  orderNoPerUser: { name: 'order-no-user', limit: SHOP_LIMITS.orderNumbersPerMinute, periodMs: MINUTE },
  /** Error reports from one IP. */
  errorReportPerIp: { name: 'error-report-ip', limit: 30, periodMs: MINUTE }
} as const satisfies Record<string, RateRule>
