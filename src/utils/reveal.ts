import Taro from '@tarojs/taro'

/**
 * Scrolls the page so that what `selector` names is in view: a result the shopper asked for, or the
 * first inline error of a form, that rendered below the fold. Called right after the state change that
 * shows it; the scroll waits for that render. The element's top lands a little below the bar.
 */
export function reveal (selector: string): void {
  setTimeout(() => {
    Taro.pageScrollTo({ selector, offsetTop: -80, duration: 200 }).catch(() => undefined)
  }, 60)
}
