/**
 * WeChat's refusals, and what the app does about them (issue 22 item 2).
 *
 * - Privacy not agreed: since 2023 a private API (location, image and file pickers, the clipboard) waits
 *   for wx.onNeedPrivacyAuthorization's answer; declined, it fails "<api>:fail privacy permission is not
 *   authorized" (errno 104).
 *   https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/PrivacyAuthorize.html
 *   https://developers.weixin.qq.com/miniprogram/dev/api/open-api/privacy/wx.onNeedPrivacyAuthorization.html
 * - A scope refused (scope.userLocation): "<api>:fail auth deny" (some clients say "auth denied"), at once
 *   and without asking again until the user turns it on in the settings (wx.openSetting).
 *   https://developers.weixin.qq.com/miniprogram/dev/framework/open-ability/authorize.html
 *   https://developers.weixin.qq.com/miniprogram/dev/api/open-api/setting/wx.openSetting.html
 *
 * Declining keeps the app usable: the caller falls back (location: the IP location) or says why it cannot
 * go on and offers to ask again (withPrivacyRetry).
 */
import Taro from '@tarojs/taro'
import type { MessageKey } from '@/locales/types'
import { t } from '@/stores/locale'
import { dialog } from '@/utils/feedback'

/** Why a platform call failed: privacy declined, a scope refused, the user cancelled, or anything else. */
export type Refusal = 'privacy' | 'scope' | 'cancel' | 'other'

/** WeChat's errno for "privacy permission is not authorized". */
export const PRIVACY_NOT_AUTHORIZED_ERRNO = 104

function errMsgOf (e: unknown): string {
  if (typeof e === 'string') return e
  if (e && typeof e === 'object') {
    const m = (e as { errMsg?: unknown; message?: unknown }).errMsg ?? (e as { message?: unknown }).message
    if (typeof m === 'string') return m
  }
  return ''
}

/** What a failure of a WeChat API means (its errMsg and errno). */
export function refusalOf (e: unknown): Refusal {
  const msg = errMsgOf(e)
  const errno = e && typeof e === 'object' ? (e as { errno?: unknown }).errno : undefined
  if (errno === PRIVACY_NOT_AUTHORIZED_ERRNO || /privacy permission is not authorized/i.test(msg)) return 'privacy'
  if (/:\s*fail[\s:]+auth den(y|ied)\b/i.test(msg) || /authorize no response/i.test(msg)) return 'scope'
  if (/:\s*fail[\s:]+cancel\b/i.test(msg)) return 'cancel'
  return 'other'
}

/** A private API the user would not allow: the message says why the action cannot go on. */
export class PermissionRefused extends Error {
  constructor (readonly refusal: 'privacy' | 'scope', message: string) {
    super(message)
    this.name = 'PermissionRefused'
  }
}

/**
 * Runs a private API (an image or file picker, the clipboard). When the user declines the privacy prompt,
 * a dialog says why the action needs it (`why`) and offers to ask again: confirmed, the call runs again
 * (WeChat asks through onNeedPrivacyAuthorization once more); cancelled, it rejects with PermissionRefused
 * carrying that text. Every other failure passes through as it came.
 */
export async function withPrivacyRetry<T> (run: () => Promise<T>, why: MessageKey): Promise<T> {
  for (;;) {
    try {
      return await run()
    } catch (e) {
      if (refusalOf(e) !== 'privacy') throw e
      const again = await dialog({ title: t('privacy.title'), message: t(why), confirmText: t('privacy.askAgain'), cancelText: t('feedback.cancel') })
      if (!again) throw new PermissionRefused('privacy', t(why))
    }
  }
}

/**
 * Opens the mini-program's settings (it must follow a tap: WeChat refuses it otherwise) and tells
 * whether the scope is allowed now.
 */
export async function openSettingsFor (scope: string): Promise<boolean> {
  try {
    const res = await Taro.openSetting()
    return res.authSetting?.[scope as keyof typeof res.authSetting] === true
  } catch {
    return false
  }
}
