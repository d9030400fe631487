import Taro from '@tarojs/taro'

/**
 * Scrolls the page so that what `selector` names is in view: a result the shopper asked for, or the
 * first inline error of a form, that rendered below the fold. Called right after the state change that
 * shows it; the scroll waits for that render. The element lands in the middle of the screen, clear of
 * the bottom bar. `otherwise` runs when nothing on the page matches (e.g. a server's error about a
 * field the form has no place for), so the message is never lost.
 */
export function reveal (selector: string, otherwise?: () => void): void {
  setTimeout(() => {
    if (process.env.TARO_ENV === 'h5') {
      // H5: the page scrolls in Taro's page element, which scrollIntoView finds by itself
      const el = typeof document === 'undefined' ? null : document.querySelector(selector)
      if (!el) { otherwise?.(); return }
      if (typeof el.scrollIntoView === 'function') el.scrollIntoView({ block: 'center', behavior: 'smooth' })
      return
    }
    try {
      Taro.createSelectorQuery().select(selector).boundingClientRect(rect => {
        if (!rect) { otherwise?.(); return }
        Taro.pageScrollTo({ selector, offsetTop: -160, duration: 200 }).catch(() => undefined)
      }).exec()
    } catch {
      otherwise?.()
    }
  }, 60)
}
