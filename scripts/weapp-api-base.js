/**
 * The API base compiled into the mini-program (config/index.ts). WeChat's wx.request, uploadFile and
 * downloadFile take only absolute http(s) URLs, and a published mini-program reaches only https hosts
 * listed in its request domains
 * (https://developers.weixin.qq.com/miniprogram/dev/framework/ability/network.html), so:
 * - a development build (npm run dev:weapp, NODE_ENV=development) defaults to the local server that
 *   `npm start` runs, http://127.0.0.1:3000/dev-api, which WeChat DevTools reaches with "do not verify
 *   legal domains" ticked (project.config.json urlCheck: false);
 * - a production build (npm run build:weapp) needs TARO_APP_API_BASE set to an https address and stops
 *   otherwise, before anything is compiled.
 * H5 keeps the relative /dev-api (the page's own origin).
 */
const DEV_WEAPP_API_BASE = 'http://127.0.0.1:3000/dev-api'

class WeappApiBaseError extends Error {}

/**
 * @param {{ base?: string, production: boolean }} o the TARO_APP_API_BASE given (if any), and whether
 *   this is a production build
 * @returns {string} the base to compile in, without a trailing slash
 */
function weappApiBase ({ base, production }) {
  const given = (base || '').trim()
  const example = 'TARO_APP_API_BASE=https://api.example.com/dev-api npm run build:weapp'
  if (!given) {
    if (!production) return DEV_WEAPP_API_BASE
    throw new WeappApiBaseError(
      'The mini-program needs the shop API\'s https address: set TARO_APP_API_BASE, e.g.\n  ' + example +
      '\n(WeChat only requests absolute https URLs on the domains listed for the app; for a development build use npm run dev:weapp.)')
  }
  let url
  try {
    url = new URL(given)
  } catch {
    url = null
  }
  if (!url || !/^https?:$/.test(url.protocol) || !/^https?:\/\//i.test(given)) {
    throw new WeappApiBaseError(
      `TARO_APP_API_BASE is "${given}": the mini-program needs an absolute address (WeChat refuses relative URLs), e.g.\n  ` +
      (production ? example : 'TARO_APP_API_BASE=http://192.168.1.20:3000/dev-api npm run dev:weapp'))
  }
  if (production && url.protocol !== 'https:') {
    throw new WeappApiBaseError(
      `TARO_APP_API_BASE is "${given}": a production mini-program reaches only https addresses, e.g.\n  ` + example +
      '\n(for http on your own network use a development build: npm run dev:weapp.)')
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new WeappApiBaseError(`TARO_APP_API_BASE is "${given}": give the address without a query, fragment or credentials.`)
  }
  return given.replace(/\/+$/, '')
}

module.exports = { weappApiBase, WeappApiBaseError, DEV_WEAPP_API_BASE }
