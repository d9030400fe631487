/**
 * A webpack pre-loader for the style sheets of Taro's components on H5 (@tarojs/components'
 * taro-components.css and @tarojs/components-react's index.css, which the production build extracts into
 * the entry's CSS file): it drops the styles of the components the app does not use, Icon, Checkbox and
 * Radio, with WeUI's icon font, inlined there as a data URI (6 KB; about 3 KB brotli before the first
 * render). Which components the app uses is checked by test/unit/unused-taro-styles.test.ts, which
 * fails when src/ imports one of these.
 *
 * The styles of the components in OWN_CHUNK (the date and list picker: 4 KB, 0.6 KB brotli, in every
 * first page's document) leave the entry's sheet too: they come with the component, in the chunk of the
 * pages that use it. Each of Taro's React components imports an empty `./style/index.scss.js`;
 * component-styles-loader.js makes that module import this sheet with `?component=<name>`, and for that
 * query this loader keeps the component's rules only.
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

/** Components whose styles come with them, not with the entry: the prefix of their classes and keyframes. */
const OWN_CHUNK = { picker: 'taro-picker' }

/** Whether a selector (or a keyframes name) belongs to a component with this class prefix. */
function belongsTo (text, prefix) {
  return new RegExp(`(^|[^\\w-])\\.?${prefix}([^\\w]|_|-|$)`).test(text)
}

/** The component's rules (`only` set) or every rule but the components' (`only` null). */
function splitComponents (css, only) {
  const root = postcss.parse(css)
  const prefixes = only ? [OWN_CHUNK[only]] : Object.values(OWN_CHUNK)
  const mine = text => prefixes.some(p => belongsTo(text, p))
  root.walkAtRules(/keyframes$/, rule => {
    if (mine(rule.params) !== Boolean(only)) rule.remove()
  })
  root.walkRules(rule => {
    if (rule.parent && rule.parent.type === 'atrule' && /keyframes$/.test(rule.parent.name)) return
    const kept = rule.selectors.filter(s => mine(s) === Boolean(only))
    if (!kept.length) rule.remove()
    else if (kept.length !== rule.selectors.length) rule.selectors = kept
  })
  root.walkAtRules(rule => {
    if (rule.nodes && rule.nodes.length === 0) rule.remove()
  })
  if (only) root.walkComments(c => { c.remove() })
  return root.toString()
}

module.exports = function unusedTaroStylesLoader (source) {
  const asked = /[?&]component=([\w-]+)/.exec(this && this.resourceQuery ? this.resourceQuery : '')
  if (asked && !OWN_CHUNK[asked[1]]) throw new Error(`unused-taro-styles-loader: no styles of their own for component ${asked[1]}`)
  return splitComponents(dropUnused(String(source)), asked ? asked[1] : null)
}
module.exports.dropUnused = dropUnused
module.exports.splitComponents = splitComponents
module.exports.OWN_CHUNK = OWN_CHUNK
module.exports.UNUSED_COMPONENTS = ['Icon', 'Checkbox', 'CheckboxGroup', 'Radio', 'RadioGroup']
