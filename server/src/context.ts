/** What route modules need, built once per app (see app.ts). */
import type { Alerts } from './services/alerts'
import type { TtsEngine } from './providers/tts'
import type { DifyClient } from './providers/dify'
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config'
import type { Clock } from './clock'
import type { Db } from './db'
import type { Dialect } from './db/dialect'
import type { Mailer } from './providers/mail'
import type { SmsSender } from './providers/sms'
import type { WeChatClient } from './providers/wechat'
import type { WeChatPayClient } from './providers/wechatpay'
import type { AmapClient } from './providers/amap'
import type { OfflineIpLocator } from './providers/ipLocation'
import type { Kuaidi100Client } from './providers/kuaidi100'
import type { TencentMapClient } from './providers/tencentMap'
import type { RateLimiter } from './security/rateLimiter'
import type { SessionService } from './services/sessions'
import type { OneTimeCodes } from './services/codes'

export interface AppContext {
  config: Config
  db: Db
  dialect: Dialect
  clock: Clock
  /** null: mail is not available (production without SMTP_URL). */
  mailer: Mailer | null
  /** null: SMS is not available (production without SMS_PROVIDER_URL). */
  sms: SmsSender | null
  wechat: WeChatClient
  /** null: WeChat Pay is not configured. */
  wechatPay: WeChatPayClient | null
  /** Map providers; null: not configured (no key). The offline IP locator is always there. */
  maps: { tencent: TencentMapClient | null; amap: AmapClient | null; ipLocator: OfflineIpLocator }
  /** null: Kuaidi100 is not configured. */
  kuaidi100: Kuaidi100Client | null
  limiter: RateLimiter
  /** Operator alerts (robots, the complaint mailbox): services/alerts.ts. */
  alerts: Alerts
  /** Text to speech (null: off or not installed). */
  tts: TtsEngine | null
  /** The Dify-compatible AI (null: AI_API_KEY unset). */
  ai: DifyClient | null
  sessions: SessionService
  codes: OneTimeCodes
}

/** The Fastify instance routes are declared on: TypeBox schemas give the handlers their types. */
export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>
