/**
 * Accounts and login (spec 5, 7; PRODUCT.md "Accounts"), error reports (spec 3, 8) and the login
 * settings. Schemas of every request and answer, the types derived from them, and the calls.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { ERROR_REPORT_LIMITS, LOGIN_LIMITS, REQUEST_ID_PATTERN } from './limits'
import { MultilineText, Nullable, Obj, StringEnum, Text } from './schema'

// ---- fields (spec 5: the login form limits) -----------------------------------------------------

export const UserName = Text({ minLength: LOGIN_LIMITS.userNameMin, maxLength: LOGIN_LIMITS.userNameMax })
export const Password = Text({ minLength: LOGIN_LIMITS.passwordMin, maxLength: LOGIN_LIMITS.passwordMax })
export const Phone = Type.String({ pattern: LOGIN_LIMITS.phonePattern, description: 'Mainland mobile number' })
export const Email = Type.String({ format: 'email', maxLength: LOGIN_LIMITS.emailMax })
export const Code = Text({ minLength: LOGIN_LIMITS.codeMin, maxLength: LOGIN_LIMITS.codeMax })
/** A WeChat login code (wx.login / OAuth). */
export const WeChatCode = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' })

// ---- answers --------------------------------------------------------------------------------------

export const Role = StringEnum(['shopper', 'operator'] as const)
export type Role = Static<typeof Role>

export const UserInfo = Type.Object({
  id: Type.Integer(),
  userName: Nullable(Type.String()),
  nickname: Type.String(),
  phone: Nullable(Type.String()),
  email: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  role: Role
})
export type UserInfo = Static<typeof UserInfo>

export const LoginResult = Type.Object({ token: Type.String(), user: UserInfo })
export type LoginResult = Static<typeof LoginResult>

/**
 * Which optional shopper features this shop can serve (each needs a third party the server may lack):
 * the app hides what cannot work instead of showing a shopper a configuration word.
 */
export const ShopCapabilities = Type.Object({
  /** Address search and "use my location" in the address form (Tencent's location service or AMap's web service). */
  maps: Type.Boolean(),
  /** Which of the two serves them (and the driving routes): MAP_PROVIDER on the server. Absent: neither. */
  mapProvider: Type.Optional(Type.Union([Type.Literal('tencentMap'), Type.Literal('amap')])),
  /** A parcel's tracking timeline (Kuaidi100); without it the number is shown to copy. */
  tracking: Type.Boolean(),
  /** The market price on a prize page (JD Union). */
  priceCompare: Type.Boolean(),
  /** Reading the results aloud after a draw (text to speech). */
  speech: Type.Boolean(),
  /** AI help (reading a screenshot in a message to the shop). */
  ai: Type.Boolean(),
  /**
   * The H5 app's web map (pickup counters, a parcel's route): the provider's script with the shop's
   * browser key (restricted to the shop's domains by the provider). Absent: H5 shows no map.
   */
  webMap: Type.Optional(Type.Object({ provider: Type.Literal('tencentMap'), script: Type.String() }))
})
export type ShopCapabilities = Static<typeof ShopCapabilities>

export const LoginSettings = Type.Object({
  password: Type.Boolean(),
  sms: Type.Boolean(),
  email: Type.Boolean(),
  wechat: Type.Boolean(),
  weapp: Type.Boolean(),
  register: Type.Boolean(),
  capabilities: ShopCapabilities,
  /**
   * The shop's business domains (types/webDomains.ts): the sites its web view may show besides its own
   * origin. Absent (an older server): none.
   */
  webDomains: Type.Optional(Type.Array(Type.String())),
  /**
   * Development only: which of SMS and mail go only to the server's log (no provider; codes and mails are
   * printed there). The app says so to operators and promises shoppers nothing by those ways.
   */
  devLogOnly: Type.Optional(Type.Array(StringEnum(['sms', 'email'] as const)))
})
export type LoginSettings = Static<typeof LoginSettings>

export const WechatAuthorizeResult = Type.Object({
  url: Type.String(),
  state: Type.String({ description: 'Random; WeChat hands it back on the redirect: compare it before POST /login/wechat' })
})
export type WechatAuthorizeResult = Static<typeof WechatAuthorizeResult>

export const MpUrlResult = Type.Object({ url: Type.String() })
export type MpUrlResult = Static<typeof MpUrlResult>

// ---- requests -------------------------------------------------------------------------------------

/**
 * POST /login/passwd: one of user_name, phone or email, plus password. All optional in the schema:
 * a missing one answers the spec's own messages ("必须提供 user_name、phone 或 email 之一", "必须提供 password").
 */
export const PasswordLoginRequest = Obj({
  user_name: Type.Optional(UserName),
  phone: Type.Optional(Phone),
  email: Type.Optional(Email),
  password: Type.Optional(Password)
})
export type PasswordLoginRequest = Static<typeof PasswordLoginRequest>

export const SmsCodeQuery = Obj({ phone: Phone })
export const SmsLoginRequest = Obj({ phone: Phone, code: Code })
export type SmsLoginRequest = Static<typeof SmsLoginRequest>
/** POST /login/mail/sendCode: the address travels in the `phone` field (spec 3). */
export const MailCodeRequest = Obj({ phone: Email })
export type MailCodeRequest = Static<typeof MailCodeRequest>
export const MailLoginRequest = Obj({ phone: Email, code: Code })
export type MailLoginRequest = Static<typeof MailLoginRequest>

/** POST /login/register?table=user: a password plus one of user_name, phone or email (a phone or address with its code). */
export const RegisterRequest = Obj({
  password: Type.Optional(Password),
  user_name: Type.Optional(UserName),
  phone: Type.Optional(Phone),
  email: Type.Optional(Email),
  code: Type.Optional(Code)
})
export type RegisterRequest = Static<typeof RegisterRequest>
export const RegisterQuery = Obj({ table: Type.Literal('user') })

/** POST /login/wechat, POST /login/weapp */
export const WechatLoginRequest = Obj({ code: WeChatCode })
export type WechatLoginRequest = Static<typeof WechatLoginRequest>
export const OpenIdQuery = Obj({ code: WeChatCode })
export const WechatAuthorizeQuery = Obj({
  redirect_uri: Type.Optional(Text({ minLength: 1, maxLength: 500 })),
  scope: Type.Optional(StringEnum(['snsapi_userinfo', 'snsapi_base'] as const))
})

/** POST /get_mp_url: a URL link that opens the mini-program (e.g. from an SMS or a browser). */
export const MpUrlRequest = Obj({
  /** A page of the mini-program, e.g. "pages/login/index"; empty: its home page. */
  path: Type.Optional(Type.String({ maxLength: 100, pattern: '^/?[A-Za-z0-9_/-]*$' })),
  /** Query string for that page, e.g. "id=1". */
  query: Type.Optional(Type.String({ maxLength: 1024, pattern: '^[A-Za-z0-9_.~!*\'();:@&=+$,/?%#-]*$' })),
  /** Days the link stays valid, 1-30 (default 30). */
  expire_interval: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 }))
})
export type MpUrlRequest = Static<typeof MpUrlRequest>

/** POST /error/report (spec 3). */
export const ErrorReport = Obj({
  error_message: MultilineText({ minLength: 1, maxLength: ERROR_REPORT_LIMITS.error_message }),
  path: Text({ maxLength: ERROR_REPORT_LIMITS.path }),
  type: Text({ minLength: 1, maxLength: ERROR_REPORT_LIMITS.type }),
  sub_source: Text({ maxLength: ERROR_REPORT_LIMITS.sub_source }),
  app_id: Text({ maxLength: ERROR_REPORT_LIMITS.app_id }),
  /** The X-Request-Id the server answered the failing call with (the server's log has that request under it). */
  request_id: Type.Optional(Type.String({ pattern: REQUEST_ID_PATTERN, maxLength: ERROR_REPORT_LIMITS.request_id }))
})
export type ErrorReport = Static<typeof ErrorReport>

// ---- the calls ------------------------------------------------------------------------------------

const tag = 'accounts'
export const accountRoutes = {
  passwordLogin: route({
    method: 'POST', url: '/login/passwd', auth: 'none', tag, body: PasswordLoginRequest, data: LoginResult,
    summary: 'Log in with a password',
    description: 'One of user_name, phone or email, plus password. Wrong credentials answer 401 the same way for unknown accounts; guesses are limited per account and per IP (429).'
  }),
  smsCode: route({
    method: 'GET', url: '/login/sms/code', auth: 'none', tag, querystring: SmsCodeQuery, data: Type.Null(),
    summary: 'Send a login code by SMS', description: 'One code per number a minute, ten a day; the answer is the same whether or not an account exists.'
  }),
  smsLogin: route({ method: 'POST', url: '/login/sms', auth: 'none', tag, body: SmsLoginRequest, data: LoginResult, summary: 'Log in (or sign up) with an SMS code' }),
  mailCode: route({
    method: 'POST', url: '/login/mail/sendCode', auth: 'none', tag, body: MailCodeRequest, data: Type.Null(),
    summary: 'Send a login code by e-mail', description: 'The address travels in the `phone` field (spec 3).'
  }),
  mailLogin: route({ method: 'POST', url: '/login/mail', auth: 'none', tag, body: MailLoginRequest, data: LoginResult, summary: 'Log in (or sign up) with an e-mail code' }),
  register: route({
    method: 'POST', url: '/login/register', auth: 'none', tag, querystring: RegisterQuery, body: RegisterRequest, data: LoginResult,
    summary: 'Sign up', description: 'A password plus one of user_name, phone or email; a phone or address needs the code sent there (`code`). User names are compared after NFKC normalisation and case folding; one with an invisible character (zero-width, control or format characters, types/invisibleChars.ts) is a 400 on `user_name`.'
  }),
  weappLogin: route({ method: 'POST', url: '/login/weapp', auth: 'none', tag, body: WechatLoginRequest, data: LoginResult, summary: 'Log in from the mini-program (wx.login code)' }),
  openidLogin: route({ method: 'GET', url: '/login/openid', auth: 'none', tag, querystring: OpenIdQuery, data: LoginResult, summary: 'Log in by WeChat web OAuth, silently (snsapi_base)' }),
  wechatAuthorize: route({ method: 'GET', url: '/login/wechat', auth: 'none', tag, querystring: WechatAuthorizeQuery, data: WechatAuthorizeResult, summary: 'The WeChat web OAuth authorize URL' }),
  wechatLogin: route({ method: 'POST', url: '/login/wechat', auth: 'none', tag, body: WechatLoginRequest, data: LoginResult, summary: 'Log in by WeChat web OAuth (snsapi_userinfo)' }),
  mpUrl: route({ method: 'POST', url: '/get_mp_url', auth: 'none', tag, body: MpUrlRequest, data: MpUrlResult, summary: 'A URL link that opens the mini-program' }),
  userInfo: route({ method: 'GET', url: '/getUserInfo', auth: 'user', tag, data: UserInfo, summary: 'The logged-in user' }),
  logout: route({ method: 'GET', url: '/logout', auth: 'none', tag, data: Type.Null(), summary: 'Log out', description: 'Always succeeds; a live bearer token is revoked.' }),
  loginSettings: route({ method: 'GET', url: '/system/setting/login', auth: 'none', tag, data: LoginSettings, summary: 'Which login methods and optional shopper features (capabilities) this shop offers' }),
  errorReport: route({
    method: 'POST', url: '/error/report', auth: 'optional', tag: 'reports', body: ErrorReport, data: Type.Null(),
    summary: 'Report a client error', description: `Stored for the operators; at most ${ERROR_REPORT_LIMITS.body} bytes of JSON.`
  })
}
