/** Account calls (spec 7), typed by their routes in types/accounts.ts. */
import type { DataOf } from '~types/api'
import type { MailCodeRequest, MailLoginRequest, MpUrlRequest, PasswordLoginRequest, RegisterRequest, SmsLoginRequest, accountRoutes } from '~types/accounts'
import { getRoute, post, postRoute } from './request'

type A = typeof accountRoutes

export const accountApi = {
  loginByPassword: (body: PasswordLoginRequest) => postRoute<A['passwordLogin']>('/login/passwd', body),
  sendSmsCode: (phone: string) => getRoute<A['smsCode']>('/login/sms/code', { phone }),
  loginBySms: (body: SmsLoginRequest) => postRoute<A['smsLogin']>('/login/sms', body),
  sendMailCode: (body: MailCodeRequest) => postRoute<A['mailCode']>('/login/mail/sendCode', body),
  loginByMail: (body: MailLoginRequest) => postRoute<A['mailLogin']>('/login/mail', body),
  register: (body: RegisterRequest) => post<DataOf<A['register']>>('/login/register?table=user', body),
  loginByWeapp: (code: string) => postRoute<A['weappLogin']>('/login/weapp', { code }),
  loginByOpenId: (code: string) => getRoute<A['openidLogin']>('/login/openid', { code }),
  /** WeChat web OAuth (H5): the authorize URL to open and the state WeChat hands back with the code. */
  wechatAuthorize: (query: { redirect_uri: string; scope: 'snsapi_userinfo' | 'snsapi_base' }) => getRoute<A['wechatAuthorize']>('/login/wechat', query),
  loginByWechat: (code: string) => postRoute<A['wechatLogin']>('/login/wechat', { code }),
  userInfo: () => getRoute<A['userInfo']>('/getUserInfo'),
  logout: () => getRoute<A['logout']>('/logout'),
  loginSettings: () => getRoute<A['loginSettings']>('/system/setting/login'),
  /** A WeChat URL link that opens a page of the mini-program (H5's "open in WeChat"). */
  mpUrl: (body: MpUrlRequest) => postRoute<A['mpUrl']>('/get_mp_url', body)
}
