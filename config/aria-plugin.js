/**
 * A Taro build plugin: lets the mini-program's templates carry WeChat's accessibility attributes.
 *
 * Taro's WeChat templates list, for each component, the attributes they pass on from the React props
 * (@tarojs/shared's components: View has hover-class, animation and the touch events, and nothing
 * else), so `aria-role` and `aria-label` set in src/ (a11yControl, decorativeImage in
 * src/utils/format.ts) were dropped before they reached WeChat. WeChat's components take the aria-*
 * attributes of WAI-ARIA and read them to screen readers (VoiceOver / TalkBack):
 * https://developers.weixin.qq.com/miniprogram/dev/framework/ability/accessibility.html
 * The WeChat platform plugin builds its templates from @tarojs/shared's `internalComponents` (one
 * object, held by reference by every template; the platform merges its own extras into it the same
 * way, `template.mergeComponents`), so merging the aria attributes into that object before the build
 * writes base.wxml makes the templates pass them on. The app's runtime makes its attribute aliases from
 * its own bundled copy of that list, so src/utils/aria.ts merges the same attributes there before the
 * first render. Checked in test/weapp/aria.weapp.test.js.
 */
// the attributes src/ sets (test/weapp/aria.weapp.test.js keeps this list and src/ together); the
// runtime's half, src/utils/aria.ts, reads the same list
// (per component: an image takes only a name, a role or hiding; each attribute costs base.wxml about
// 1.6 KB of the main package)
const ARIA = Object.fromEntries(Object.entries(require('../src/utils/ariaAttributes.json'))
  .map(([component, attrs]) => [component, Object.fromEntries(attrs.map(a => [a, '']))]))

module.exports = ctx => {
  ctx.onBuildStart(() => {
    if (process.env.TARO_ENV !== 'weapp') return
    // the copy of @tarojs/shared the WeChat platform plugin itself loads
    const weapp = require.resolve('@tarojs/plugin-platform-weapp')
    const { internalComponents } = require(require.resolve('@tarojs/shared/dist/template', { paths: [weapp] }))
    ctx.helper.recursiveMerge(internalComponents, ARIA)
  })
}
