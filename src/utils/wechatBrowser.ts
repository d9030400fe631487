/**
 * What the app needs of WeChat's web login (./wechatOAuth.ts) before the flow itself runs: whether this
 * is WeChat's browser, and the mark that someone logged in with WeChat here before (so that a visit
 * inside WeChat may log in silently). Kept apart so that the first pages carry these few lines, not the
 * flow, which H5 fetches when it runs (./wechatOAuthApi.h5.ts).
 */
import Taro from '@tarojs/taro'

/** Set after a WeChat login on this device: inside WeChat a later visit may log in silently. */
export const WECHAT_RETURNING_KEY = 'wechat_oauth_returning'

/** WeChat's own browser (its user agent names MicroMessenger). */
export function inWeChatBrowser (userAgent: string | undefined = typeof navigator === 'undefined' ? undefined : navigator.userAgent): boolean {
  return /MicroMessenger/i.test(userAgent ?? '')
}

/** Whether a visit inside WeChat may log in silently (someone logged in with WeChat here before). */
export function mayLogInSilently (): boolean {
  try {
    return Taro.getStorageSync(WECHAT_RETURNING_KEY) === '1'
  } catch {
    return false
  }
}

/** After an explicit logout, or a silent login that failed: no silent login until the next WeChat login. */
export function forgetSilentLogin (): void {
  try { Taro.removeStorageSync(WECHAT_RETURNING_KEY) } catch { /* nothing kept */ }
}
