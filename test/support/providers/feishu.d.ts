import type { FakeProvider } from './http'
export interface FeishuCall { path: string; method: string; contentType: string; body: any; raw: string }
export interface FakeFeishu extends FakeProvider<FeishuCall> {
  token: string
  secret: string
  /** Texts the bot posted. */
  messages: string[]
  now: () => number
  keyword: string | null
  perMinute: number
  perSecond: number
  env: { FEISHU_WEBHOOK_URL: string; FEISHU_WEBHOOK_SECRET: string }
}
export const TOKEN: string
export const SECRET: string
export function signOf (timestamp: string, secret: string): string
export function start (options?: { secret?: string; token?: string }): Promise<FakeFeishu>
