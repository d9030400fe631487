/** WeChat sign-in: the mini-program's credentials and the official account's, for web OAuth. */
import { apiBase, isUrl, variable, type Problems, type Reader } from './env'

export const wechatVariables = {
  WECHAT_APPID: variable.text('The mini-program\'s appid (code2session, URL links); set with WECHAT_SECRET'),
  WECHAT_SECRET: variable.text('The mini-program\'s secret'),
  WECHAT_OAUTH_APPID: variable.text('The official account\'s appid, for web OAuth in WeChat\'s browser; set with WECHAT_OAUTH_SECRET'),
  WECHAT_OAUTH_SECRET: variable.text('The official account\'s secret'),
  WECHAT_API_BASE: variable.url('Base of the WeChat HTTP API (a test double in tests)', 'https://api.weixin.qq.com'),
  WECHAT_OAUTH_AUTHORIZE_URL: variable.url('WeChat\'s web OAuth authorize page', 'https://open.weixin.qq.com/connect/oauth2/authorize')
}

export interface WeChatConfig {
  /** Mini-program credentials (code2session, URL links). */
  appId?: string
  secret?: string
  /** Official-account / website credentials for web OAuth. */
  oauthAppId?: string
  oauthSecret?: string
  /** Base of the WeChat HTTP API (a local fake in tests). */
  apiBase: string
  /** WeChat's web OAuth authorize page (a local fake in the end-to-end tests). */
  authorizeUrl: string
}

/** WECHAT_API_BASE, WECHAT_APPID with WECHAT_SECRET, WECHAT_OAUTH_APPID with WECHAT_OAUTH_SECRET, WECHAT_OAUTH_AUTHORIZE_URL. */
export function parseWeChat (env: Reader<keyof typeof wechatVariables>, problems: Problems): WeChatConfig {
  const base = apiBase(env, 'WECHAT_API_BASE', problems)
  const appId = env.get('WECHAT_APPID')
  const secret = env.get('WECHAT_SECRET')
  if (!!appId !== !!secret) problems.push('WECHAT_APPID and WECHAT_SECRET must be set together')
  const oauthAppId = env.get('WECHAT_OAUTH_APPID')
  const oauthSecret = env.get('WECHAT_OAUTH_SECRET')
  if (!!oauthAppId !== !!oauthSecret) problems.push('WECHAT_OAUTH_APPID and WECHAT_OAUTH_SECRET must be set together')
  const authorizeUrl = env.value('WECHAT_OAUTH_AUTHORIZE_URL')
  if (!isUrl(authorizeUrl, ['http:', 'https:'])) problems.push('WECHAT_OAUTH_AUTHORIZE_URL must be an http:// or https:// URL')
  return { appId, secret, oauthAppId, oauthSecret, apiBase: base, authorizeUrl }
}
