import { makeAutoObservable } from './mobx'

/**
 * WeChat's privacy consent (issue 22 item 2). When a private API (location, image and file pickers, the
 * clipboard) runs before the user agreed to the privacy guide, WeChat holds it and calls the listener of
 * wx.onNeedPrivacyAuthorization with a `resolve`; the held call goes on when resolve({event: 'agree',
 * buttonId}) names the agree button the user tapped, and fails "privacy permission is not authorized"
 * after resolve({event: 'disagree'}).
 * https://developers.weixin.qq.com/miniprogram/dev/api/open-api/privacy/wx.onNeedPrivacyAuthorization.html
 *
 * This store keeps the resolves waiting for an answer; the prompt (components/PrivacyPrompt, inside every
 * page's PageShell) shows while there is one, and answers them all at once.
 */

/** resolve() of onNeedPrivacyAuthorization. */
export type PrivacyResolve = (option: { event: 'exposureAuthorization' | 'agree' | 'disagree'; buttonId?: string }) => void

/** The id of the prompt's agree button (WeChat checks that the button resolve names was tapped). */
export const PRIVACY_AGREE_BUTTON_ID = 'privacy-agree'

export class PrivacyStore {
  /** The resolves waiting for the user's answer (several private calls may be held at once). */
  waiting: PrivacyResolve[] = []

  constructor () {
    makeAutoObservable(this, { waiting: false }, { autoBind: true })
  }

  /** Observed copy of the count (the list itself holds functions). */
  count = 0

  /** Whether the prompt is to be shown. */
  get open (): boolean {
    return this.count > 0
  }

  /** The listener given to wx.onNeedPrivacyAuthorization: shows the prompt, and tells WeChat it is shown. */
  need (resolve: PrivacyResolve): void {
    this.waiting.push(resolve)
    this.count = this.waiting.length
    try { resolve({ event: 'exposureAuthorization' }) } catch { /* an older base library: no such event */ }
  }

  /** The user tapped the agree button (its agreeprivacyauthorization event). */
  agree (): void {
    this.answer({ event: 'agree', buttonId: PRIVACY_AGREE_BUTTON_ID })
  }

  /** The user declined: the held calls fail, and each caller falls back or says why. */
  decline (): void {
    this.answer({ event: 'disagree' })
  }

  private answer (option: Parameters<PrivacyResolve>[0]): void {
    const all = this.waiting
    this.waiting = []
    this.count = 0
    for (const resolve of all) {
      try { resolve(option) } catch { /* one held call's failure does not keep the others waiting */ }
    }
  }
}

export const privacyStore = new PrivacyStore()
