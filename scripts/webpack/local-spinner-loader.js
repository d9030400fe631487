/**
 * A webpack pre-loader for the styles of Taro's H5 button: its loading spinner is a PNG on a
 * third-party image host (img13.360buyimg.com), which costs a request to another origin and fails
 * offline. This replaces every remote url(...) in those styles with our own spinner, inlined as an
 * SVG data URI: twelve bars with falling opacity, which the style's `steps(12)` rotation turns.
 */
const BARS = Array.from({ length: 12 }, (_, i) =>
  `<rect x='46' y='8' width='8' height='24' rx='4' fill='%23999' opacity='${(1 - i / 13).toFixed(2)}' transform='rotate(${i * 30} 50 50)'/>`
).join('')
const SPINNER = `"data:image/svg+xml;utf8,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>${BARS}</svg>"`
const REMOTE_URL = /url\(\s*['"]?https?:\/\/[^)'"]+['"]?\s*\)/g

module.exports = function localSpinnerLoader (source) {
  return String(source).replace(REMOTE_URL, `url(${SPINNER})`)
}
module.exports.REMOTE_URL = REMOTE_URL
