/**
 * H5 builds only: stands in for polyfills that Taro's request module imports for old browsers
 * (whatwg-fetch, abortcontroller-polyfill). Every browser the app targets (package.json browserslist:
 * Chrome 69+, iOS 12+, Android 7+) has fetch and AbortController natively.
 */
module.exports = {}
