import type { FakeProvider } from './http'
export interface WeComCall { path: string; query: Record<string, string>; method: string; contentType: string; body: any; raw: string }
export interface FakeWeCom extends FakeProvider<WeComCall> {
  key: string
  /** Texts the robot posted. */
  messages: string[]
  perMinute: number
  env: { WECOM_WEBHOOK_URL: string }
}
export const KEY: string
export function start (options?: { key?: string }): Promise<FakeWeCom>
