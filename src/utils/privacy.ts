/**
 * Registers the app's answer to WeChat's privacy check once, at start (src/app.tsx). The mini-program only:
 * H5 has no such check. Without a listener WeChat would show its own popup; with it, the app's prompt
 * (components/PrivacyPrompt) shows on whatever page is current.
 * https://developers.weixin.qq.com/miniprogram/dev/api/open-api/privacy/wx.onNeedPrivacyAuthorization.html
 * https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/PrivacyAuthorize.html
 */
import Taro from '@tarojs/taro'
import { privacyStore } from '@/stores/privacy'

let installed = false

export function installPrivacyListener (): void {
  if (installed || process.env.TARO_ENV !== 'weapp') return
  // base library 2.32.3 and later; before it, private APIs are not held for consent
  if (typeof Taro.onNeedPrivacyAuthorization !== 'function') return
  installed = true
  Taro.onNeedPrivacyAuthorization((resolve) => { privacyStore.need(resolve) })
}

/** The privacy guide as WeChat shows it (the one filled in on the mini-program's admin pages). */
export function openPrivacyContract (): void {
  if (process.env.TARO_ENV !== 'weapp' || typeof Taro.openPrivacyContract !== 'function') return
  // Taro hands back a promise for it: a failure (no guide filled in yet) must not surface as an unhandled rejection
  Promise.resolve(Taro.openPrivacyContract({}) as unknown).catch(() => undefined)
}
