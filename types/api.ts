/**
 * The wire contract shared by the app and the server (ARCHITECTURE.md, spec section 7).
 * Every handled outcome is HTTP 200 with this envelope; `code: 200` is success.
 */
export type ResultCode = 200 | 400 | 401 | 403 | 404 | 409 | 422 | 429

export interface ApiEnvelope<T = unknown> {
  code: ResultCode | number
  message: string
  data: T
}

/** Client-side error codes (spec section 8). */
export type ClientErrorCode =
  | 'ERR_NETWORK'
  | 'ECONNABORTED'
  | 'ETIMEDOUT'
  | 'ERR_BAD_REQUEST'
  | 'ERR_BAD_RESPONSE'
  | 'ERR_CANCELED'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

export interface PageQuery { page: number; size: number }
export interface PageResult<T> { list: T[]; total: number }

// ---- accounts (spec 5, 7) --------------------------------------------------------------------

/** Login form limits (spec 5, 9), checked by the app's forms and by the server's schemas. */
export const LOGIN_LIMITS = {
  userNameMin: 1,
  userNameMax: 100,
  passwordMin: 3,
  passwordMax: 18,
  codeMin: 4,
  codeMax: 6,
  /** Mainland mobile numbers. */
  phonePattern: '^1[3-9]\\d{9}$',
  emailMax: 254
} as const

export interface UserInfo {
  id: number
  userName: string | null
  nickname: string
  phone: string | null
  email: string | null
  avatar: string | null
  role: 'shopper' | 'operator'
}

/** POST /login/passwd: one of user_name, phone or email, plus password. */
export interface PasswordLoginRequest {
  user_name?: string
  phone?: string
  email?: string
  password: string
}

export interface LoginResult {
  token: string
  user: UserInfo
}

/** POST /login/sms */
export interface SmsLoginRequest { phone: string; code: string }
/** POST /login/mail/sendCode: the address travels in the `phone` field (spec 3). */
export interface MailCodeRequest { phone: string }
/** POST /login/mail */
export interface MailLoginRequest { phone: string; code: string }
/** POST /login/register?table=user */
export interface RegisterRequest {
  password: string
  user_name?: string
  phone?: string
  email?: string
  code?: string
}

/** GET /system/setting/login */
export interface LoginSettings {
  password: boolean
  sms: boolean
  email: boolean
  wechat: boolean
  weapp: boolean
  register: boolean
}

// ---- error reports (spec 3, 8) -----------------------------------------------------------------

export interface ErrorReport {
  error_message: string
  path: string
  type: string
  sub_source: string
  app_id: string
}
