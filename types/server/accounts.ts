/**
 * Account calls of the server beyond types/api.ts (spec 7: shapes "not shown" there, designed here).
 */

/** GET /login/wechat?redirect_uri=&scope=: where to send the browser for WeChat web OAuth. */
export interface WechatAuthorizeResult {
  url: string
  /** Random; WeChat hands it back on the redirect: compare it before POST /login/wechat. */
  state: string
}

/** POST /login/wechat, POST /login/weapp */
export interface WechatLoginRequest { code: string }

/** POST /get_mp_url: a URL link that opens the mini-program (e.g. from an SMS or a browser). */
export interface MpUrlRequest {
  /** A page of the mini-program, e.g. "pages/login/index"; empty: its home page. */
  path?: string
  /** Query string for that page, e.g. "id=1". */
  query?: string
  /** Days the link stays valid, 1-30 (default 30). */
  expire_interval?: number
}

export interface MpUrlResult { url: string }
