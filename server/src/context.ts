/** What route modules need, built once per app (see app.ts). */
import type { TtsEngine } from './providers/tts'
import type { DifyClient } from './providers/dify'
import type { OcrEngine } from './providers/ocr'
import type { OpenAiImagesClient } from './providers/imageGen'
import type { PdfEngine } from './engines/pdf'
import type { CogVideoClient } from './providers/cogvideo'
import type { SunoClient } from './providers/suno'
import type { PdfTaskRunner } from './domain/media/tasks'
import type { JdUnionClient } from './providers/jdUnion'
import type { JuheFlightClient, JuheTrainClient } from './providers/juhe'
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config } from './config'
import type { Clock } from './core/clock'
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
import type { SessionService } from './domain/account/sessions'
import type { OneTimeCodes } from './domain/account/codes'
import type { FeishuRobot, WeComRobot } from './providers/robots'
import type { Alerts } from './domain/ops/alerts'
import type { MediaStore } from './domain/media/mediaStore'
import type { Metrics } from './metrics/metrics'
import type { ResolveHost } from './security/fetchableUrl'

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
  /** The operators' chat robots; null: not configured (FEISHU_WEBHOOK_URL, WECOM_WEBHOOK_URL). */
  robots: { feishu: FeishuRobot | null; wecom: WeComRobot | null }
  /** Operator alerts (new complaints, shipments, withdrawals), sent after the commit. */
  alerts: Alerts
  limiter: RateLimiter
  /** Text to speech (null: off or not installed). */
  tts: TtsEngine | null
  /** The Dify-compatible AI (null: AI_API_KEY unset). */
  ai: DifyClient | null
  /** OCR (null: off or not installed). */
  ocr: OcrEngine | null
  /** Pictures from words, an OpenAI-compatible Images API (null: IMAGE_API_KEY unset). */
  imageGen: OpenAiImagesClient | null
  /** PDF to images (null: PDF_ENGINE=off) and its queue of tasks. */
  pdf: PdfEngine | null
  pdfTasks: PdfTaskRunner
  /** Zhipu CogVideoX (null: VIDEO_API_KEY unset). */
  video: CogVideoClient | null
  /** A Suno-style music API (null: MUSIC_API_BASE unset). */
  music: SunoClient | null
  /** Price comparison through JD Union (null: JD_UNION_APP_KEY unset). */
  jdUnion: JdUnionClient | null
  /** Juhe train tickets and flights (null: its key unset). */
  juhe: { train: JuheTrainClient | null; flight: JuheFlightClient | null }
  sessions: SessionService
  codes: OneTimeCodes
  /** Where media bytes are kept (MEDIA_STORE): the database or S3-compatible object storage. */
  media: MediaStore
  /** The app's metrics (GET /metrics, docs/metrics.md). */
  metrics: Metrics
  /** Every address a host name resolves to (DNS; tests give their own): the URL check of security/fetchableUrl.ts. */
  resolveHost: ResolveHost
}

/** The Fastify instance routes are declared on: TypeBox schemas give the handlers their types. */
export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>
