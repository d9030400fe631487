/**
 * A webpack pre-loader for the style sheets of Taro's components on H5 (@tarojs/components'
 * taro-components.css and @tarojs/components-react's index.css, which the production build extracts into
 * the entry's CSS file): it drops the styles of the components the app does not use, Icon, Checkbox and
 * Radio, with WeUI's icon font, inlined there as a data URI (6 KB; about 3 KB brotli before the first
 * render). Which components the app uses is checked by test/unit/unused-taro-styles.test.ts, which
 * fails when src/ imports one of these.
 */
const postcss = require('postcss')

/** The components whose styles go (their class names all start with these). */
const UNUSED_CLASSES = /\.weui-(icon|check|cells)/
/** Selectors that name no class but pick the icon classes by attribute ([class^=weui-icon-]). */
const UNUSED_ATTRIBUTE = /\[class[\^*]=\\?\s*['"]?\s*weui-icon/

function unusedSelector (selector) {
  return UNUSED_CLASSES.test(selector) || UNUSED_ATTRIBUTE.test(selector)
}

function dropUnused (css) {
  const root = postcss.parse(css)
  root.walkAtRules('font-face', rule => {
    const family = rule.nodes.find(d => d.type === 'decl' && d.prop === 'font-family')
    if (family && /^['"]?weui['"]?$/.test(family.value.trim())) rule.remove()
  })
  root.walkRules(rule => {
    const kept = rule.selectors.filter(s => !unusedSelector(s))
    if (!kept.length) rule.remove()
    else if (kept.length !== rule.selectors.length) rule.selectors = kept
  })
  return root.toString()
}

module.exports = function unusedTaroStylesLoader (source) {
  return dropUnused(String(source))
}
module.exports.dropUnused = dropUnused
module.exports.UNUSED_COMPONENTS = ['Icon', 'Checkbox', 'CheckboxGroup', 'Radio', 'RadioGroup']
