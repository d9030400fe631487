/**
 * H5: WeChat's web login flow (./wechatOAuth.ts) is a chunk of its own, fetched when it runs: a tap on
 * the WeChat button, a return from WeChat with a code, or a silent login inside WeChat's browser. Each
 * of these goes on to a request and a page change, so the chunk costs no noticeable wait, and a
 * shopper who never logs in through WeChat never downloads it. Webpack keeps the module once it is here,
 * and a failed fetch is tried again by the next call.
 */
export type WechatOAuthApi = typeof import('./wechatOAuth')

export function loadWechatOAuth (): Promise<WechatOAuthApi> {
  return import(/* webpackChunkName: "wechat-oauth" */ './wechatOAuth')
}
