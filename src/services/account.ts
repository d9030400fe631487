/** Account calls (spec 7). */
import type {
  LoginResult, LoginSettings, MailCodeRequest, MailLoginRequest, PasswordLoginRequest,
  RegisterRequest, SmsLoginRequest, UserInfo
} from '~types/api'
import { get, post } from './request'

export const accountApi = {
  loginByPassword: (body: PasswordLoginRequest) => post<LoginResult>('/login/passwd', body),
  sendSmsCode: (phone: string) => get<null>('/login/sms/code', { phone }),
  loginBySms: (body: SmsLoginRequest) => post<LoginResult>('/login/sms', body),
  sendMailCode: (body: MailCodeRequest) => post<null>('/login/mail/sendCode', body),
  loginByMail: (body: MailLoginRequest) => post<LoginResult>('/login/mail', body),
  register: (body: RegisterRequest) => post<LoginResult>('/login/register?table=user', body),
  loginByWeapp: (code: string) => post<LoginResult>('/login/weapp', { code }),
  loginByOpenId: (code: string) => get<LoginResult>('/login/openid', { code }),
  userInfo: () => get<UserInfo>('/getUserInfo'),
  logout: () => get<null>('/logout'),
  loginSettings: () => get<LoginSettings>('/system/setting/login')
}
