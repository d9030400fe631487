export interface WeChatOAuthCall { path: string; query: Record<string, string> }
export interface FakeWeChatUser { openid: string; nickname: string; headimgurl: string }
export interface FakeWeChatOAuth {
  url: string
  appid: string
  secret: string
  user: FakeWeChatUser
  calls: WeChatOAuthCall[]
  codes: Map<string, FakeWeChatUser & { scope: string }>
  env: Record<string, string>
  close (): Promise<void>
}
export const APPID: string
export const SECRET: string
export function start (): Promise<FakeWeChatOAuth>
