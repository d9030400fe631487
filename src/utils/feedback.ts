import { t } from '@/stores/locale'
import { THEME_COLOR, TOAST_DEFAULT_DURATION_MS } from '@/constants'
import { withFeedbackApi } from '@/utils/feedbackApi'

export type ToastLevel = 'none' | 'success' | 'error' | 'loading'

export interface ToastOptions {
  message?: string
  duration?: number
  level?: ToastLevel
}

/** Toast (spec 3, 9): defaults message "done", 3000 ms, level none. */
export function toast (options: ToastOptions | string = {}): Promise<void> {
  const o = typeof options === 'string' ? { message: options } : options
  const title = o.message ?? t('feedback.done')
  return withFeedbackApi(ui => ui.showToast({
    title,
    icon: o.level ?? 'none',
    duration: o.duration ?? TOAST_DEFAULT_DURATION_MS
  })).then(() => undefined, () => undefined)
}

export interface DialogOptions {
  title?: string
  message?: string
  confirmText?: string
  cancelText?: string
  /** false hides the cancel button (an alert). */
  showCancel?: boolean
}

/**
 * Whether a dialog's button text fits: at most 4 Chinese characters, a Latin letter counting half
 * (https://developers.weixin.qq.com/miniprogram/dev/api/ui/interaction/wx.showModal.html: confirmText and
 * cancelText "最多 4 个字符"; Taro's H5 showModal counts the same way and refuses a longer one).
 */
export const fitsModalButton = (text: string): boolean => text.replace(/[\u0391-\uFFE5]/g, 'aa').length <= 8

/**
 * Dialog (spec 3, 9): resolves true when confirmed. Defaults confirm and cancel; the confirm button in the
 * theme colour. A button text too long for the platform falls back to the default: refused, the dialog
 * never showed and the caller read it as a cancel ("Publish anyway" did, in English).
 */
export async function dialog (options: DialogOptions = {}): Promise<boolean> {
  const button = (text: string | undefined, fallback: string) => text !== undefined && fitsModalButton(text) ? text : fallback
  try {
    const res = await withFeedbackApi(ui => ui.showModal({
      title: options.title ?? '',
      content: options.message ?? '',
      confirmText: button(options.confirmText, t('feedback.confirm')),
      cancelText: button(options.cancelText, t('feedback.cancel')),
      showCancel: options.showCancel ?? true,
      // the app's red, not the platform's green (issue 48)
      confirmColor: THEME_COLOR
    }))
    return !!res.confirm
  } catch {
    return false
  }
}

let loadingCount = 0

/** Loading indicator shared by overlapping tasks: shown while at least one is running. */
export const loading = {
  show (message?: string): void {
    loadingCount += 1
    if (loadingCount === 1) withFeedbackApi(ui => ui.showLoading({ title: message ?? t('feedback.loading'), mask: true })).catch(() => undefined)
  },
  hide (): void {
    if (loadingCount === 0) return
    loadingCount -= 1
    if (loadingCount === 0) withFeedbackApi(ui => ui.hideLoading()).catch(() => undefined)
  },
  async wrap<T> (task: Promise<T> | (() => Promise<T>), message?: string): Promise<T> {
    loading.show(message)
    try {
      return await (typeof task === 'function' ? task() : task)
    } finally {
      loading.hide()
    }
  },
  get active (): boolean { return loadingCount > 0 }
}
