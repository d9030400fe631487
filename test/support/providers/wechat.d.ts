export interface WeChatOAuthCall { path: string; query: Record<string, string> }
export interface FakeWeChatUser { openid: string; nickname: string; headimgurl: string }
/** A subscription message WeChat took: data as keyword -> value. */
export interface FakeSubscribeMessage { touser: string; templateId: string; page?: string; lang?: string; state?: string; data: Record<string, string> }
interface Subscriptions {
  /** template id -> its keywords (thing1, time2 ...). */
  templates: Record<string, string[]>
  messages: FakeSubscribeMessage[]
  knownOpenids: Set<string>
  /** The user allowed one message of the template (wx.requestSubscribeMessage "accept"). */
  subscribe (openid: string, templateId: string): void
  consentsLeft (openid: string, templateId: string): number
}
export interface FakeWeChatOAuth extends Subscriptions {
  url: string
  appid: string
  secret: string
  user: FakeWeChatUser
  calls: WeChatOAuthCall[]
  codes: Map<string, FakeWeChatUser & { scope: string }>
  env: Record<string, string>
  close (): Promise<void>
}
export interface FakeMiniProgram extends Subscriptions {
  url: string
  appid: string
  secret: string
  user: { openid: string; unionid?: string }
  calls: WeChatOAuthCall[]
  staleTokens: number
  mint (user?: { openid: string; unionid?: string }): string
  close (): Promise<void>
}
export const APPID: string
export const SECRET: string
export const MINI_APPID: string
export const MINI_SECRET: string
export const EVENT_TEMPLATE_ID: string
export const RESTOCK_TEMPLATE_ID: string
export function start (): Promise<FakeWeChatOAuth>
export function startMiniProgram (): Promise<FakeMiniProgram>
