/** GET /system/setting/login: which login methods this configuration offers. */
import type { LoginSettings } from '../../../types/api'
import type { Api, AppContext } from '../context'
import { features } from '../config'
import { ok } from '../http/envelope'

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
  app.get('/system/setting/login', async (request) => ok<LoginSettings>(request, loginSettings(ctx)))
}
