/**
 * WeChat web OAuth for the H5 app (an official account's web authorisation; spec 7: GET /login/wechat,
 * POST /login/wechat, GET /login/openid), when the shop has it configured (login settings `wechat`):
 *
 *   1. the login page asks the server for the authorize URL (GET /login/wechat with this page as the
 *      redirect and a scope) and gets it with a random `state`, which it keeps in storage;
 *   2. the browser goes to WeChat, where the user agrees;
 *   3. WeChat sends the browser back to the login page with `code` and `state`; the page compares the
 *      state with the one it kept (a code it did not ask for, or one from another attempt, is refused
 *      without calling the server) and then logs in: POST /login/wechat {code} for `snsapi_userinfo`
 *      (nickname and avatar), GET /login/openid?code= for the silent `snsapi_base`.
 *
 * The silent variant runs by itself only inside WeChat's browser, for someone who has logged in with
 * WeChat on this device before (a session that expired comes back without a tap); a first login is a
 * tap on the WeChat button after agreeing to the terms.
 *
 * Whether this is WeChat's browser, and the mark of an earlier WeChat login, are in ./wechatBrowser.ts:
 * the first pages need those, and H5 fetches this file only when the flow runs (./wechatOAuthApi.h5.ts).
 */
import Taro from '@tarojs/taro'
import type { LoginResult } from '~types/accounts'
import { accountApi } from '@/services/account'
import { browser } from '@/utils/browser'
import { WECHAT_RETURNING_KEY } from '@/utils/wechatBrowser'

export type WechatScope = 'snsapi_userinfo' | 'snsapi_base'

/** The attempt under way: the state WeChat must hand back, the scope asked for, when. */
export const WECHAT_OAUTH_KEY = 'wechat_oauth'
/** An attempt older than this is not finished (the user left WeChat's page and came back much later). */
export const WECHAT_OAUTH_TTL_MS = 10 * 60 * 1000

interface Attempt { state: string; scope: WechatScope; at: number }

/** This page as WeChat should send the browser back to it: origin and path, without any query. @h5only */
export function loginRedirectUri (): string {
  return `${window.location.origin}${window.location.pathname}`
}

/** Step 1: asks for the authorize URL, keeps its state, and sends the browser to WeChat. @h5only */
export async function startWechatOAuth (scope: WechatScope, redirectUri: string = loginRedirectUri()): Promise<void> {
  const { url, state } = await accountApi.wechatAuthorize({ redirect_uri: redirectUri, scope })
  Taro.setStorageSync(WECHAT_OAUTH_KEY, JSON.stringify({ state, scope, at: Date.now() } satisfies Attempt))
  browser.assign(url)
}

export type OAuthReturn =
  | { kind: 'none' }
  /** WeChat came back without a code: the user refused. */
  | { kind: 'denied' }
  /** A state that is not the one kept (or nothing kept, or too old): refused without a call. */
  | { kind: 'mismatch' }
  | { kind: 'code'; code: string; scope: WechatScope }

/** Step 3: what the query WeChat came back with means. The kept attempt is used up either way. */
export function readOAuthReturn (query: Record<string, string | undefined>, now: number = Date.now()): OAuthReturn {
  const { code, state } = query
  if (!state && !code) return { kind: 'none' }
  let kept: Partial<Attempt> | null = null
  try {
    const raw: unknown = Taro.getStorageSync(WECHAT_OAUTH_KEY)
    Taro.removeStorageSync(WECHAT_OAUTH_KEY)
    kept = typeof raw === 'string' && raw ? JSON.parse(raw) as Partial<Attempt> : null
  } catch {
    kept = null
  }
  const fresh = kept && typeof kept.at === 'number' && now - kept.at <= WECHAT_OAUTH_TTL_MS && kept.at <= now + 60_000
  if (!kept || !fresh || typeof kept.state !== 'string' || kept.state !== state) return { kind: 'mismatch' }
  if (!code) return { kind: 'denied' }
  return { kind: 'code', code, scope: kept.scope === 'snsapi_base' ? 'snsapi_base' : 'snsapi_userinfo' }
}

/** Step 3, the login itself, by the scope that was asked for. */
export async function finishWechatOAuth (code: string, scope: WechatScope): Promise<LoginResult> {
  const result = scope === 'snsapi_base' ? await accountApi.loginByOpenId(code) : await accountApi.loginByWechat(code)
  try { Taro.setStorageSync(WECHAT_RETURNING_KEY, '1') } catch { /* only the silent login next time is lost */ }
  return result
}

/** Takes code and state out of the address bar, so that a reload does not present them again. @h5only */
export function dropOAuthQuery (): void {
  const url = new URL(window.location.href)
  if (!url.searchParams.has('code') && !url.searchParams.has('state')) return
  url.searchParams.delete('code')
  url.searchParams.delete('state')
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`)
}
