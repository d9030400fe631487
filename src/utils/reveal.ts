import Taro from '@tarojs/taro'

/**
 * Scrolls the page so that what `selector` names is in view: a result the shopper asked for, or the
 * first inline error of a form, that rendered below the fold. Called right after the state change that
 * shows it; the scroll waits for that render. The element's top lands a little below the bar.
 * `otherwise` runs when nothing on the page matches (e.g. a server's error about a field the form has
 * no place for), so the message is never lost.
 */
export function reveal (selector: string, otherwise?: () => void): void {
  setTimeout(() => {
    try {
      Taro.createSelectorQuery().select(selector).boundingClientRect(rect => {
        if (!rect) { otherwise?.(); return }
        Taro.pageScrollTo({ selector, offsetTop: -80, duration: 200 }).catch(() => undefined)
      }).exec()
    } catch {
      otherwise?.()
    }
  }, 60)
}
