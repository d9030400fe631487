/**
 * Navigation rules of spec section 2, in one place:
 * titles by the second path segment, the pages -> pagesA rewrite, index collapse, navigate and
 * redirect, external links, reload with the current query, share options.
 */
import Taro from '@tarojs/taro'
import { isH5 } from '@/config'
import { DEFAULT_SHARE_PATH, ENTRY_PAGE, MAIN_PAGES, WEB_VIEW_PAGE } from '@/constants'
import { localeStore, t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { webDomainsKnown, webViewAllows } from '@/stores/webDomains'
import { browser } from './browser'
import { dialog, toast } from './feedback'

export type JumpMode = 'navigate' | 'redirect'
export const JUMP_MODES: readonly JumpMode[] = ['navigate', 'redirect']

/** The second path segment of a route: '/pagesA/home/index?x=1' -> 'home'. */
export function titleKeyOf (route: string): string {
  const path = route.split(/[?#]/)[0]
  const segments = path.split('/').filter(Boolean)
  return segments[1] ?? ''
}

/** The page title looked up from the route in the current locale; '' when unknown. */
export function pageTitle (route: string): string {
  const key = `titles.${titleKeyOf(route)}`
  return localeStore.has(key) ? t(key as MessageKey) : ''
}

const MAIN_PAGE_PATHS = MAIN_PAGES.map(p => `/${p}`)

/**
 * '/pages/home/index' -> '/pagesA/home/index'; '/pagesA/x/index/index' -> '/pagesA/x/index'.
 * Links containing /login/ keep `pages`; so do the other main-package pages (web_view), which only
 * exist there. The query and hash are kept.
 */
export function rewriteLink (link: string): string {
  const cut = link.search(/[?#]/)
  const path = cut < 0 ? link : link.slice(0, cut)
  const rest = cut < 0 ? '' : link.slice(cut)
  let out = path.replace(/(\/index)+\/?$/, '/index')
  const keep = link.includes('/login/') || MAIN_PAGE_PATHS.some(p => out.replace(/^\/?/, '/') === p)
  if (!keep) out = out.replace(/(^|\/)pages(?=\/)/, '$1pagesA')
  return out + rest
}

export const isExternal = (link: string) => /^[a-z][a-z\d+.-]*:/i.test(link)

/** Only http(s) links with a host are followed; javascript:, data: and broken URLs are refused. */
export function isValidExternal (link: string): boolean {
  // the mini-program's web-view loads only https pages (its business domains):
  // https://developers.weixin.qq.com/miniprogram/dev/component/web-view.html
  if (!(process.env.TARO_ENV === 'weapp' ? /^https:\/\//i : /^https?:\/\//i).test(link)) return false
  try {
    const u = new URL(link)
    return !!u.hostname && !/\s/.test(link)
  } catch {
    return false
  }
}

export interface RouteInfo { path: string; query: Record<string, string> }

/** The page on top of the stack, as '/pagesA/home/index' plus its query. */
export function currentRoute (): RouteInfo {
  let pages: unknown[] = []
  try {
    pages = Taro.getCurrentPages()
  } catch {
    /* the H5 router is not started yet: no current page */
  }
  const top = pages[pages.length - 1] as { route?: string; options?: Record<string, string> } | undefined
  const raw = top?.route ?? ''
  const [route, search] = raw.split('?')
  const query: Record<string, string> = { ...(top?.options ?? {}) }
  if (search) {
    for (const [k, v] of new URLSearchParams(search)) query[k] = v
  }
  delete (query as Record<string, unknown>).$taroTimestamp
  const path = route ? `/${route.replace(/^\//, '')}` : ''
  // H5: the address bar holds the page's query where Taro's page object has not recorded it (a page
  // opened by its address, or one that failed while rendering: components/PageError)
  if (isH5() && typeof location !== 'undefined' && path && location.pathname === path) {
    for (const [k, v] of new URLSearchParams(location.search)) if (!(k in query) && k !== 'stamp') query[k] = v
  }
  return { path, query }
}

export function buildQuery (query: Record<string, string | number | boolean | undefined>): string {
  const parts = Object.entries(query)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
  return parts.length ? `?${parts.join('&')}` : ''
}

export type JumpResult = 'navigated' | 'external' | 'empty' | 'invalid-link' | 'not-shop-page' | 'invalid-mode' | 'failed'

/**
 * Follows a link: an app route (rewritten) by navigateTo or redirectTo; an external link by
 * setting the location (H5: the shopper leaves the shop, the address bar shows where to) or through the
 * web-view page (mini-program), which shows only the shop's business domains (stores/webDomains.ts; a
 * page outside them is refused here when the list is known, else by the page itself).
 */
export async function jump (link: string | undefined | null, mode: string = 'navigate'): Promise<JumpResult> {
  const url = (link ?? '').trim()
  if (!url) {
    toast({ message: t('nav.emptyLink') })
    return 'empty'
  }
  if (!(JUMP_MODES as readonly string[]).includes(mode)) {
    await dialog({ message: t('nav.invalidJumpType'), showCancel: false })
    return 'invalid-mode'
  }
  if (isExternal(url)) {
    if (!isValidExternal(url)) {
      toast({ message: t('nav.invalidLink') })
      return 'invalid-link'
    }
    if (isH5()) {
      browser.assign(url)
      return 'external'
    }
    if (webDomainsKnown() && !webViewAllows(url)) {
      toast({ message: t('nav.notShopPage') })
      return 'not-shop-page'
    }
    return jump(`${WEB_VIEW_PAGE}${buildQuery({ url })}`, mode)
  }
  const target = rewriteLink(url.startsWith('/') ? url : `/${url}`)
  try {
    if (mode === 'redirect') await Taro.redirectTo({ url: target })
    else await Taro.navigateTo({ url: target })
    return 'navigated'
  } catch {
    return 'failed'
  }
}

export const navigate = (link: string) => jump(link, 'navigate')
export const redirect = (link: string) => jump(link, 'redirect')

/** Back, or to the entry page when this page is the first one (spec 2). */
export function goBack (): void {
  if (Taro.getCurrentPages().length > 1) {
    Taro.navigateBack().catch(() => undefined)
  } else {
    Taro.reLaunch({ url: ENTRY_PAGE }).catch(() => undefined)
  }
}

/** Reopens the current page with its current query (spec 2). */
export async function reloadPage (): Promise<boolean> {
  const { path, query } = currentRoute()
  if (!path) {
    toast({ message: t('nav.refreshFailed') })
    return false
  }
  try {
    await Taro.redirectTo({ url: `${path}${buildQuery(query)}` })
    return true
  } catch {
    toast({ message: t('nav.refreshFailed') })
    return false
  }
}

export interface ShareInput {
  title?: string
  path?: string
  query?: Record<string, string | number | boolean | undefined>
  imageUrl?: string
}

export interface ShareOptions { title: string; path: string; imageUrl?: string }

/** Share to a message: the page path (rewritten) with its query; default the entry page. */
export function shareMessage (input: ShareInput = {}): ShareOptions {
  const base = rewriteLink(input.path || DEFAULT_SHARE_PATH)
  const extra = input.query ? buildQuery(input.query) : ''
  const path = extra ? `${base}${base.includes('?') ? `&${extra.slice(1)}` : extra}` : base
  const out: ShareOptions = { title: input.title ?? t('app.name'), path }
  if (input.imageUrl) out.imageUrl = input.imageUrl
  return out
}

/** Share to the timeline: title plus the query string (the timeline has no path). */
export function shareTimeline (input: ShareInput = {}): { title: string; query: string; imageUrl?: string } {
  const q = input.query ? buildQuery(input.query).slice(1) : ''
  const out: { title: string; query: string; imageUrl?: string } = { title: input.title ?? t('app.name'), query: q }
  if (input.imageUrl) out.imageUrl = input.imageUrl
  return out
}

/** The shop's own documents shown by web_view (?doc=): the agreements, and how a draw can be checked. */
export type AgreementKind = 'service' | 'privacy' | 'fairness'

/** The service agreement and privacy policy open in the web-view page (rendered there natively). */
export const agreementLink = (kind: AgreementKind) => `${WEB_VIEW_PAGE}${buildQuery({ doc: kind })}`
