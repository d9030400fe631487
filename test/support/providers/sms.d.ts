import type { FakeProvider } from './http'
export interface SmsCall { path: string; method: string; contentType: string; body: string; raw: string }
export interface FakeSmsRelay extends FakeProvider<SmsCall> {
  /** Texts sent, in order. */
  messages: Array<{ phone: string; text: string }>
  /** The 6-digit code of the last text to `phone` (throws when none). */
  lastCode: (phone: string) => string
  env: { SMS_PROVIDER_URL: string; SMS_API_KEY: string }
}
export const KEY: string
export function start (options?: { key?: string }): Promise<FakeSmsRelay>
