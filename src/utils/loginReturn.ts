/**
 * "Log in to continue": a page that needs a session says why (a dialog in the user's language),
 * remembers itself with its query (the series, the case, the picked slots) in storage through Taro's
 * storage API (H5 localStorage, the mini-program's storage: it survives a redirect to WeChat and back),
 * and opens the login page; after a login the login page takes the remembered page and goes back there.
 */
import Taro from '@tarojs/taro'
import { ENTRY_PAGE, LOGIN_RETURN_KEY, LOGIN_RETURN_TTL_MS } from '@/constants'
import { t } from '@/stores/locale'
import { dialog } from './feedback'
import { navigate, rewriteLink } from './navigation'

interface StoredReturn { url: string; at: number }

/** Only a page of this app (never the login page itself, never an external link) is a return target. */
export function isReturnTarget (url: unknown): url is string {
  return typeof url === 'string' && url.length <= 2000 && /^\/pages(A)?\/[a-z_]+\/index(\?[^#\s]*)?$/.test(url) && !url.includes('/login/')
}

/** Remembers where to come back to after a login (the link is rewritten like any other). */
export function rememberReturn (url: string, now: number = Date.now()): boolean {
  const target = rewriteLink(url)
  if (!isReturnTarget(target)) return false
  try {
    Taro.setStorageSync(LOGIN_RETURN_KEY, JSON.stringify({ url: target, at: now } satisfies StoredReturn))
    return true
  } catch {
    return false
  }
}

/** The remembered page, once: it is removed as it is read; a stale or malformed one answers null. */
export function takeReturn (now: number = Date.now()): string | null {
  let raw: unknown
  try {
    raw = Taro.getStorageSync(LOGIN_RETURN_KEY)
    Taro.removeStorageSync(LOGIN_RETURN_KEY)
  } catch {
    return null
  }
  if (typeof raw !== 'string' || !raw) return null
  try {
    const stored = JSON.parse(raw) as Partial<StoredReturn>
    if (!isReturnTarget(stored.url) || typeof stored.at !== 'number') return null
    if (now - stored.at > LOGIN_RETURN_TTL_MS || stored.at > now + 60_000) return null
    return stored.url
  } catch {
    return null
  }
}

/**
 * Says why a login is needed and offers it; on "log in" remembers `returnUrl` and opens the login page.
 * Answers whether the user went to log in.
 */
export async function loginToContinue (reason: string, returnUrl: string): Promise<boolean> {
  const go = await dialog({ title: t('login.requiredTitle'), message: reason, confirmText: t('login.goLogin'), cancelText: t('login.notNow') })
  if (!go) return false
  rememberReturn(returnUrl)
  await navigate(ENTRY_PAGE)
  return true
}
