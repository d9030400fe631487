/** GET /system/setting/login: which login methods this configuration offers. */
import { accountRoutes as r, type LoginSettings } from '../../../types/accounts'
import type { Api, AppContext } from '../context'
import { features } from '../config'
import { defineRoute } from '../http/route'

export function loginSettings (ctx: AppContext): LoginSettings {
  const f = features(ctx.config)
  return {
    password: true,
    sms: ctx.sms !== null,
    email: ctx.mailer !== null,
    wechat: f.wechatWeb,
    weapp: f.weapp,
    register: true
  }
}

export function settingsRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.loginSettings, async () => loginSettings(ctx))
}
