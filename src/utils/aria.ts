import { mergeInternalComponents } from '@tarojs/shared'
import ARIA_ATTRIBUTES from './ariaAttributes.json'

/**
 * The mini-program's half of config/aria-plugin.js: the build taught WeChat's templates the aria-*
 * attributes, and Taro's runtime must send them under the same short names (it maps each attribute to
 * `p0`, `p1` ... from the same component list, sorted, so both sides agree). Without this the page data
 * would carry `ariaRole` while the template reads `p4`, and WeChat would show no name or role.
 * Runs before the first page renders (src/app.tsx); nothing to do on H5, where React DOM writes the
 * attributes itself.
 */
export function installAriaAttributes (): void {
  if (process.env.TARO_ENV !== 'weapp') return
  mergeInternalComponents(Object.fromEntries(Object.entries(ARIA_ATTRIBUTES).map(([component, attrs]) => [component, Object.fromEntries(attrs.map(a => [a, '']))])))
}
