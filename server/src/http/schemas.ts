/** Field schemas shared by the routes (spec 5: the login form limits). */
import { Type } from 'typebox'
import { LOGIN_LIMITS } from '../../../types/api'

export const USER_NAME_MIN = LOGIN_LIMITS.userNameMin
export const USER_NAME_MAX = LOGIN_LIMITS.userNameMax
export const PASSWORD_MIN = LOGIN_LIMITS.passwordMin
export const PASSWORD_MAX = LOGIN_LIMITS.passwordMax
export const CODE_MIN = LOGIN_LIMITS.codeMin
export const CODE_MAX = LOGIN_LIMITS.codeMax
export const PHONE_PATTERN = LOGIN_LIMITS.phonePattern
export const EMAIL_MAX = LOGIN_LIMITS.emailMax

export const UserName = Type.String({ minLength: USER_NAME_MIN, maxLength: USER_NAME_MAX, pattern: '^[^\\u0000-\\u001f\\u007f]+$' })
export const Password = Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX })
export const Phone = Type.String({ pattern: PHONE_PATTERN })
export const Email = Type.String({ format: 'email', maxLength: EMAIL_MAX })
export const Code = Type.String({ minLength: CODE_MIN, maxLength: CODE_MAX })
/** A WeChat login code (wx.login / OAuth). */
export const WeChatCode = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' })

/** Objects are strict everywhere: an unknown field is a 400, never dropped. */
export const strict = { additionalProperties: false } as const
