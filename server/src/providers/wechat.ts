/**
 * WeChat through its documented HTTP API:
 *  - mini-program login: GET /sns/jscode2session
 *  - web OAuth (official account): GET /sns/oauth2/access_token, GET /sns/userinfo
 *  - mini-program URL links: GET /cgi-bin/token, POST /wxa/generate_urllink
 *  - subscription messages (订阅消息): POST /cgi-bin/message/subscribe/send
 * WeChat answers HTTP 200 with {errcode, errmsg} on failure; those become WeChatError, while transport
 * failures and unreadable answers become ProviderUnavailableError.
 */
import type { WeChatConfig } from '../config'
import type { Clock } from '../core/clock'
import { ProviderUnavailableError, PROVIDER_TIMEOUT_MS } from './errors'

export class WeChatError extends Error {
  constructor (readonly errcode: number, readonly errmsg: string) {
    super(`WeChat error ${errcode}: ${errmsg}`)
    this.name = 'WeChatError'
  }
}

export interface MiniProgramSession { openid: string; unionid?: string; sessionKey: string }
export interface OAuthToken { accessToken: string; openid: string; unionid?: string; scope: string }
export interface WeChatProfile { openid: string; unionid?: string; nickname: string; avatar: string | null }
export interface UrlLinkRequest { path?: string; query?: string; expireDays?: number }

/** One subscription message: `data` maps each keyword of the template (thing1, time2 ...) to its value. */
export interface SubscribeMessage {
  touser: string
  templateId: string
  /** The mini-program page it opens, with its query (no leading /). */
  page?: string
  data: Record<string, string>
  lang?: 'zh_CN' | 'en_US'
  state?: 'developer' | 'trial' | 'formal'
}

/** WeChat's time format for a moment, in China time (UTC+8, no daylight saving): 2026年12月12日 14:00. */
export function subscribeTime (at: Date | number | string, withTime = true): string {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at)
  if (!Number.isFinite(ms)) throw new RangeError(`subscribeTime: not a time: ${String(at)}`)
  const d = new Date(ms + 8 * 3_600_000).toISOString()
  const day = `${d.slice(0, 4)}年${Number(d.slice(5, 7))}月${Number(d.slice(8, 10))}日`
  return withTime ? `${day} ${d.slice(11, 16)}` : day
}

/** A date (2026年12月12日 or 2026-12-12), a time of day (14:00), or both. */
const WECHAT_DAY = '(?:\\d{4}年\\d{1,2}月\\d{1,2}日|\\d{4}-\\d{1,2}-\\d{1,2})'
const WECHAT_CLOCK = '\\d{1,2}:\\d{2}'
/** time: a time of day, with a date before it or not; a period is two of them joined by "~". */
const TIME_POINT = `(?:${WECHAT_DAY} ?)?${WECHAT_CLOCK}`
const TIME_VALUE = new RegExp(`^${TIME_POINT}(?: ?~ ?${TIME_POINT})?$`)
/** date: a date, with a time of day after it or not; a period likewise. */
const DATE_POINT = `${WECHAT_DAY}(?: ${WECHAT_CLOCK})?`
const DATE_VALUE = new RegExp(`^${DATE_POINT}(?: ?~ ?${DATE_POINT})?$`)

/**
 * A value fitted to its keyword's rule, so a message is never refused for it (47003):
 * https://developers.weixin.qq.com/miniprogram/dev/OpenApiDoc/mp-message-management/subscribe-message/sendMessage.html
 * lists them: thing at most 20 characters (cut here with '…'), phrase at most 5 Chinese characters,
 * character_string at most 32 letters, digits and symbols, number at most 32 digits (a decimal point
 * allowed), letter at most 32 letters, name at most 10 Chinese characters or 20 letters and symbols;
 * time a time of day with or without a date before it (2026年12月12日 14:00), date a date with or
 * without a time. The kind is the keyword without its digits (thing1 -> thing). A time or date may be
 * given as a Date or an ISO time (2026-12-12T06:00:00Z): it is written in China time with its time of
 * day (2026年12月12日 14:00), which both kinds take. A phrase, letter or number with nothing of its
 * kind left comes back empty, which WeChat refuses: the caller has to give something of that kind.
 */
export function subscribeValue (keyword: string, value: string | Date): string {
  const kind = keyword.replace(/\d+$/, '')
  if (kind === 'time' || kind === 'date') {
    if (value instanceof Date) return subscribeTime(value)
    const text = value.replace(/\s+/g, ' ').trim()
    if ((kind === 'time' ? TIME_VALUE : DATE_VALUE).test(text)) return text
    return /^\d{4}-\d{2}-\d{2}T/.test(text) && Number.isFinite(Date.parse(text)) ? subscribeTime(text) : text
  }
  const flat = String(value).replace(/\s+/g, ' ').trim()
  const cut = (text: string, max: number) => {
    const chars = [...text]
    return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`
  }
  switch (kind) {
    case 'thing': return cut(flat, 20)
    case 'phrase': return [...flat.replace(/[^\u4e00-\u9fa5]/g, '')].slice(0, 5).join('')
    case 'character_string': return [...flat.replace(/[^\x21-\x7e]/g, '')].slice(0, 32).join('')
    case 'number': {
      const [whole, ...rest] = flat.replace(/[^0-9.]/g, '').split('.')
      return (rest.length ? `${whole || '0'}.${rest.join('')}` : whole).slice(0, 32).replace(/\.$/, '')
    }
    case 'letter': return flat.replace(/[^A-Za-z]/g, '').slice(0, 32)
    case 'name': return /[\u4e00-\u9fa5]/.test(flat)
      ? [...flat.replace(/[^\u4e00-\u9fa5]/g, '')].slice(0, 10).join('')
      : flat.replace(/[^\x20-\x7e]/g, '').trim().slice(0, 20)
    default: return flat
  }
}

export interface WeChatClient {
  code2Session (code: string): Promise<MiniProgramSession>
  oauthAccessToken (code: string): Promise<OAuthToken>
  userInfo (accessToken: string, openid: string): Promise<WeChatProfile>
  generateUrlLink (request: UrlLinkRequest): Promise<string>
  authorizeUrl (redirectUri: string, scope: 'snsapi_base' | 'snsapi_userinfo', state: string): string
  sendSubscribeMessage (message: SubscribeMessage): Promise<void>
}

type Json = Record<string, unknown>

/** access_token answers that mean "get a new token and try again". */
const STALE_TOKEN_ERRCODES = new Set([40001, 40014, 42001])
/** Refresh the cached access_token this long before WeChat says it expires. */
const TOKEN_MARGIN_MS = 5 * 60 * 1000

export class HttpWeChatClient implements WeChatClient {
  private accessToken: { value: string; expiresAt: number } | null = null

  constructor (
    private readonly config: WeChatConfig,
    private readonly clock: Clock,
    private readonly timeoutMs = PROVIDER_TIMEOUT_MS
  ) {}

  private async call (path: string, query: Record<string, string>, body?: unknown): Promise<Json> {
    const url = new URL(this.config.apiBase + path)
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v)
    let text: string
    try {
      const res = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.timeoutMs)
      })
      text = await res.text()
      if (!res.ok) throw new Error(`HTTP ${res.status}`)
    } catch (err) {
      throw new ProviderUnavailableError('wechat', `${path}: ${(err as Error).message}`, { cause: err })
    }
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new ProviderUnavailableError('wechat', `${path}: the answer is not JSON`)
    }
    if (!json || typeof json !== 'object') throw new ProviderUnavailableError('wechat', `${path}: unexpected answer`)
    const answer = json as Json
    const errcode = Number(answer.errcode ?? 0)
    if (errcode !== 0) throw new WeChatError(errcode, String(answer.errmsg ?? ''))
    return answer
  }

  private static str (answer: Json, field: string, path: string): string {
    const v = answer[field]
    if (typeof v !== 'string' || !v) throw new ProviderUnavailableError('wechat', `${path}: no ${field} in the answer`)
    return v
  }

  private static optional (answer: Json, field: string): string | undefined {
    const v = answer[field]
    return typeof v === 'string' && v ? v : undefined
  }

  private miniProgram (): { appid: string; secret: string } {
    const { appId, secret } = this.config
    if (!appId || !secret) throw new Error('WeChat mini-program is not configured')
    return { appid: appId, secret }
  }

  private oauth (): { appid: string; secret: string } {
    const { oauthAppId, oauthSecret } = this.config
    if (!oauthAppId || !oauthSecret) throw new Error('WeChat web OAuth is not configured')
    return { appid: oauthAppId, secret: oauthSecret }
  }

  async code2Session (code: string): Promise<MiniProgramSession> {
    const path = '/sns/jscode2session'
    const a = await this.call(path, { ...this.miniProgram(), js_code: code, grant_type: 'authorization_code' })
    return {
      openid: HttpWeChatClient.str(a, 'openid', path),
      unionid: HttpWeChatClient.optional(a, 'unionid'),
      sessionKey: HttpWeChatClient.str(a, 'session_key', path)
    }
  }

  async oauthAccessToken (code: string): Promise<OAuthToken> {
    const path = '/sns/oauth2/access_token'
    const a = await this.call(path, { ...this.oauth(), code, grant_type: 'authorization_code' })
    return {
      accessToken: HttpWeChatClient.str(a, 'access_token', path),
      openid: HttpWeChatClient.str(a, 'openid', path),
      unionid: HttpWeChatClient.optional(a, 'unionid'),
      scope: HttpWeChatClient.optional(a, 'scope') ?? ''
    }
  }

  async userInfo (accessToken: string, openid: string): Promise<WeChatProfile> {
    const path = '/sns/userinfo'
    const a = await this.call(path, { access_token: accessToken, openid, lang: 'zh_CN' })
    return {
      openid: HttpWeChatClient.str(a, 'openid', path),
      unionid: HttpWeChatClient.optional(a, 'unionid'),
      nickname: HttpWeChatClient.optional(a, 'nickname') ?? '',
      avatar: HttpWeChatClient.optional(a, 'headimgurl') ?? null
    }
  }

  private async token (refresh = false): Promise<string> {
    const now = this.clock()
    if (!refresh && this.accessToken && this.accessToken.expiresAt > now) return this.accessToken.value
    const path = '/cgi-bin/token'
    const a = await this.call(path, { grant_type: 'client_credential', ...this.miniProgram() })
    const value = HttpWeChatClient.str(a, 'access_token', path)
    const expiresIn = Number(a.expires_in) > 0 ? Number(a.expires_in) : 7200
    this.accessToken = { value, expiresAt: now + expiresIn * 1000 - TOKEN_MARGIN_MS }
    return value
  }

  async generateUrlLink (request: UrlLinkRequest): Promise<string> {
    const path = '/wxa/generate_urllink'
    const body = {
      path: request.path ?? '',
      query: request.query ?? '',
      expire_type: 1,
      expire_interval: request.expireDays ?? 30
    }
    const attempt = async (refresh: boolean) => {
      const a = await this.call(path, { access_token: await this.token(refresh) }, body)
      return HttpWeChatClient.str(a, 'url_link', path)
    }
    try {
      return await attempt(false)
    } catch (err) {
      if (err instanceof WeChatError && STALE_TOKEN_ERRCODES.has(err.errcode)) return attempt(true)
      throw err
    }
  }

  /**
   * Sends a subscription message, as
   * https://developers.weixin.qq.com/miniprogram/dev/OpenApiDoc/mp-message-management/subscribe-message/sendMessage.html
   * documents it: POST /cgi-bin/message/subscribe/send?access_token, {touser, template_id, page, data:
   * {keyword: {value}}, miniprogram_state, lang}. A stale token is fetched again once; WeChat's refusal
   * (43101 the user has no consent left, 40037 the template, 47003 a value) is a WeChatError.
   */
  async sendSubscribeMessage (m: SubscribeMessage): Promise<void> {
    const path = '/cgi-bin/message/subscribe/send'
    const body = {
      touser: m.touser,
      template_id: m.templateId,
      ...(m.page ? { page: m.page } : {}),
      data: Object.fromEntries(Object.entries(m.data).map(([k, value]) => [k, { value }])),
      miniprogram_state: m.state ?? 'formal',
      lang: m.lang ?? 'zh_CN'
    }
    try {
      await this.call(path, { access_token: await this.token(false) }, body)
    } catch (err) {
      if (err instanceof WeChatError && STALE_TOKEN_ERRCODES.has(err.errcode)) {
        await this.call(path, { access_token: await this.token(true) }, body)
        return
      }
      throw err
    }
  }

  authorizeUrl (redirectUri: string, scope: 'snsapi_base' | 'snsapi_userinfo', state: string): string {
    const q = new URLSearchParams({
      appid: this.oauth().appid,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope,
      state
    })
    return `${this.config.authorizeUrl}?${q.toString()}#wechat_redirect`
  }
}
