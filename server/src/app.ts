/**
 * Builds the Fastify app: plugins, then the API routes under API_PREFIX, then the H5 build at "/".
 * Everything outside (database, providers, clock, logger) can be injected, which is how the tests run.
 */
import { randomUUID } from 'node:crypto'
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { REQUEST_ID_PATTERN } from '../../types/limits'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Config, TrustProxy } from './config'
import type { Api, AppContext } from './context'
import { systemClock, type Clock } from './core/clock'
import { openDatabase, sqlitePathIn, type DatabaseHandle } from './db'
import { localeFrom } from './i18n/messages'
import { keepSchemaCode, sharedCompilers } from './http/compilers'
import { clientErrorHandler, frameworkErrors, installErrorHandling } from './http/errors'
import { registerCompression } from './http/compress'
import { registerStatic, trimImmutableAnswers } from './http/static'
import './http/request'
import { LogMailer, SmtpMailer, type Mailer } from './providers/mail'
import { HttpSmsSender, LogSmsSender, type SmsSender } from './providers/sms'
import { HttpWeChatClient, type WeChatClient } from './providers/wechat'
import { HttpWeChatPayClient, type WeChatPayClient } from './providers/wechatpay'
import { AmapClient } from './providers/amap'
import { OfflineIpLocator } from './providers/ipLocation'
import { Kuaidi100Client } from './providers/kuaidi100'
import { TencentMapClient } from './providers/tencentMap'
import { FeishuRobot, WeComRobot } from './providers/robots'
import { Alerts } from './domain/ops/alerts'
import { RateLimiter } from './security/rateLimiter'
import { prepareDummyHash } from './security/passwords'
import { SessionService } from './domain/account/sessions'
import { OneTimeCodes } from './domain/account/codes'
import { startMaintenance } from './domain/ops/maintenance'
import { releaseHeld } from './domain/catalogue/roomHold'
import { passwordLoginRoutes } from './routes/login-password'
import { codeLoginRoutes } from './routes/login-codes'
import { registerRoutes } from './routes/register'
import { wechatRoutes } from './routes/login-wechat'
import { sessionRoutes } from './routes/session'
import { settingsRoutes } from './routes/settings'
import { dataRoutes } from './routes/data'
import { errorReportRoutes } from './routes/error-report'
import { catalogueRoutes } from './routes/catalogue'
import { walletRoutes } from './routes/wallet'
import { purchaseRoutes } from './routes/purchase'
import { prizeRoutes } from './routes/prizes'
import { orderRoutes } from './routes/orders'
import { afterDrawRoutes } from './routes/afterDraw'
import { combineRoutes } from './routes/combine'
import { propRoutes } from './routes/props'
import { geoRoutes } from './routes/geo'
import { expressRoutes } from './routes/express'
import { withdrawalRoutes } from './routes/withdrawals'
import { salesReportRoutes } from './routes/salesReport'
import { securityRoutes } from './routes/security'
import { operatorRoutes } from './routes/operators'
import { editorRoutesOf } from './routes/editor'
import { dropRoutesOf } from './routes/drops'
import { kujiRoutesOf } from './routes/kuji'
import { raffleRoutesOf } from './routes/raffle'
import { EspeakEngine, type TtsEngine } from './providers/tts'
import { speechRoutesOf } from './routes/speech'
import { aiRoutesOf } from './routes/ai'
import { DifyClient } from './providers/dify'
import { TesseractEngine, type OcrEngine } from './providers/ocr'
import { OpenAiImagesClient } from './providers/imageGen'
import { visionRoutesOf } from './routes/vision'
import { PdfjsEngine, type PdfEngine } from './engines/pdf'
import { CogVideoClient } from './providers/cogvideo'
import { SunoClient } from './providers/suno'
import { resolveWithDns, type ResolveHost } from './security/fetchableUrl'
import { PdfTaskRunner } from './domain/media/tasks'
import { taskRoutesOf } from './routes/tasks'
import { JdUnionClient } from './providers/jdUnion'
import { JuheFlightClient, JuheTrainClient } from './providers/juhe'
import { bijiaRoutesOf } from './routes/bijia'
import { travelRoutesOf } from './routes/travel'
import { eventRoutesOf } from './routes/events'
import { restockRoutesOf } from './routes/restock'
import { opsRoutesOf } from './routes/ops'
import { startEventReminders } from './domain/events/events'
import { methodRoutesOf } from './routes/methods'
import { complaintRoutes } from './routes/complaints'
import { orderHistoryRoutes } from './routes/orderHistory'
import { regionRoutes } from './routes/regions'
import { notifyRoutes } from './routes/notify'
import { showRoutesOf } from './routes/show'
import { webDomainRoutesOf } from './routes/webDomains'
import { registerMedia } from './http/media'
import { DatabaseMediaStore, S3MediaStore, type MediaStore } from './domain/media/mediaStore'
import { S3Client } from './providers/s3'
import { registerOpenApi, serveOpenApi } from './http/openapi'
import { Metrics } from './metrics/metrics'
import { meteredOcr, meteredPdf, meteredTts } from './metrics/engines'
import type { ClusterMetrics } from './metrics/cluster'

export interface BuildAppOptions {
  config: Config
  /** Default: opened from the configuration, and closed with the app. */
  database?: DatabaseHandle
  /** Default from the configuration; null switches mail off. */
  mailer?: Mailer | null
  /** Default from the configuration; null switches SMS off. */
  sms?: SmsSender | null
  wechat?: WeChatClient
  /** Default from the configuration (null when WECHATPAY_* is unset). */
  wechatPay?: WeChatPayClient | null
  clock?: Clock
  logger?: FastifyServerOptions['logger']
  /** Default from TTS_ENGINE; null switches text to speech off. */
  tts?: TtsEngine | null
  /** Default from OCR_ENGINE; null switches OCR off. */
  ocr?: OcrEngine | null
  /** Default from PDF_ENGINE; null switches PDF to images off. */
  pdf?: PdfEngine | null
  /** Default from MEDIA_STORE (the database, or the S3 bucket its settings name). */
  media?: MediaStore
  /** Periodic clean-up of sessions, codes and rate limits (default on). */
  maintenance?: boolean
  /** With WORKERS > 1, in a worker: a scrape answers every API process's metrics (metrics/cluster.ts). */
  clusterMetrics?: ClusterMetrics
  /** Default: DNS. What a host name resolves to, for the URLs a provider fetches. */
  resolveHost?: ResolveHost
}

/** The text-to-speech engine TTS_ENGINE names (espeak-ng when unset and installed; checked once per process). */
let espeakInstalled: boolean | null = null
function ttsEngineFor (setting: 'espeak-ng' | 'off' | 'auto'): TtsEngine | null {
  if (setting === 'off') return null
  if (setting === 'espeak-ng') return new EspeakEngine()
  espeakInstalled ??= EspeakEngine.available()
  return espeakInstalled ? new EspeakEngine() : null
}

/** The OCR engine OCR_ENGINE names (tesseract when unset and installed with both languages; checked once per process). */
let tesseractInstalled: boolean | null = null
function ocrEngineFor (setting: 'tesseract' | 'off' | 'auto'): OcrEngine | null {
  if (setting === 'off') return null
  if (setting === 'tesseract') return new TesseractEngine()
  tesseractInstalled ??= TesseractEngine.available()
  return tesseractInstalled ? new TesseractEngine() : null
}

/** One offline IP database per process (it holds ~40 MB once read), shared by every app built in it. */
let ipLocator: OfflineIpLocator | null = null
const sharedIpLocator = () => (ipLocator ??= new OfflineIpLocator())

/** Largest JSON body of any API call (error reports set their own, smaller limit). */
export const BODY_LIMIT = 64 * 1024

/** A hop count becomes "trust the first n hops" (what Fastify does with a number). */
function trustProxyOption (value: TrustProxy): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof value === 'number' ? (_address, hop) => hop < value : value
}

const REQUEST_ID = new RegExp(REQUEST_ID_PATTERN)

export async function buildApp (options: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = options
  const clock = options.clock ?? systemClock
  // the code compiled from the schemas, kept between starts when SCHEMA_CODE_DIR says where
  keepSchemaCode(config.schemaCodeDir ?? null)

  const app: FastifyInstance = Fastify({
    logger: options.logger ?? false,
    // production logs every request; development only when LOG_LEVEL asks (config/server.ts requestLogs)
    // (through LogController: Fastify 5.12 deprecates the top-level disableRequestLogging)
    logController: new LogController({ disableRequestLogging: !config.requestLogs }),
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: BODY_LIMIT,
    return503OnClosing: true,
    // every request has an id: the caller's X-Request-Id when it is a sane one (a proxy's or the app's),
    // else one made here; it is in each log line of the request and answered in X-Request-Id
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID()
    },
    // errors before routing answer the envelope too (see http/errors.ts)
    clientErrorHandler,
    frameworkErrors,
    // strict validation: a wrong type or an unknown field is a 400, never coerced or dropped
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, useDefaults: false } },
    // the compilers and what they compiled are shared by every app of the process (http/compilers.ts)
    schemaController: { compilersFactory: sharedCompilers as never }
  })

  // the app's own hooks are callbacks, not async functions: each async hook is a promise and a turn of
  // the microtask queue on every request (a room ask at a drop is mostly such overhead, bench/drop.js)
  app.addHook('onRequest', (request, reply, done) => { reply.header('x-request-id', request.id); done() })

  const ownsDatabase = !options.database
  const database = options.database ?? openDatabase({
    databaseUrl: config.databaseUrl,
    sqlitePath: sqlitePathIn(config.dataDir),
    onPoolError: err => app.log.error({ err }, 'database: an idle PostgreSQL connection or the SQLite checkpoint worker failed'),
    preparedStatements: config.databasePreparedStatements,
    onWarning: message => app.log.warn(message)
  })

  const dev = !config.isProduction
  const mailer: Mailer | null = options.mailer !== undefined
    ? options.mailer
    : config.smtpUrl ? new SmtpMailer(config.smtpUrl, config.mailFrom) : dev ? new LogMailer(app.log) : null
  const sms: SmsSender | null = options.sms !== undefined
    ? options.sms
    : config.sms.providerUrl ? new HttpSmsSender(config.sms.providerUrl, config.sms.apiKey) : dev ? new LogSmsSender(app.log) : null

  const robots = {
    feishu: config.robots.feishu ? new FeishuRobot(config.robots.feishu.webhookUrl, config.robots.feishu.secret, clock) : null,
    wecom: config.robots.wecom ? new WeComRobot(config.robots.wecom.webhookUrl) : null
  }
  // (the task line is read on scrape, by when ctx exists)
  const metrics = new Metrics({ database, tasks: () => ctx.pdfTasks.depth(), log: app.log, cluster: options.clusterMetrics })
  // every run of a local engine is counted, by outcome
  const tts = options.tts !== undefined ? options.tts : ttsEngineFor(config.ttsEngine)
  const ocr = options.ocr !== undefined ? options.ocr : ocrEngineFor(config.ocrEngine)
  const pdfEngine = options.pdf !== undefined ? options.pdf : config.pdfEngine === 'pdfjs' ? new PdfjsEngine() : null
  const pdf: PdfEngine | null = pdfEngine && meteredPdf(pdfEngine, metrics)
  const media: MediaStore = options.media ?? (config.media.store === 's3'
    ? new S3MediaStore(database.db, new S3Client(config.media.s3))
    : new DatabaseMediaStore(database.db))
  const ctx: AppContext = {
    config,
    db: database.db,
    dialect: database.dialect,
    clock,
    mailer,
    sms,
    wechat: options.wechat ?? new HttpWeChatClient(config.wechat, clock),
    wechatPay: options.wechatPay !== undefined
      ? options.wechatPay
      : config.wechatPay ? new HttpWeChatPayClient(config.wechatPay, clock) : null,
    maps: {
      tencent: config.maps.tencent ? new TencentMapClient(config.maps.tencent, config.maps.tencentApiBase) : null,
      amap: config.maps.amap ? new AmapClient(config.maps.amap, config.maps.amapApiBase) : null,
      ipLocator: sharedIpLocator()
    },
    kuaidi100: config.express.kuaidi100 ? new Kuaidi100Client(config.express.kuaidi100, config.express.apiBase) : null,
    robots,
    alerts: new Alerts([robots.feishu, robots.wecom].filter(r => r !== null), mailer, config.complaintMailboxes, config.alertLocale, app.log, clock),
    limiter: new RateLimiter(database.db, clock),
    tts: tts && meteredTts(tts, metrics),
    ai: config.ai ? new DifyClient(config.ai.base, config.ai.apiKey) : null,
    ocr: ocr && meteredOcr(ocr, metrics),
    imageGen: config.imageGen ? new OpenAiImagesClient(config.imageGen.base, config.imageGen.apiKey, config.imageGen.model) : null,
    pdf,
    pdfTasks: new PdfTaskRunner(database.db, clock, pdf, app.log, media),
    video: config.video ? new CogVideoClient(config.video.base, config.video.apiKey, config.video.model) : null,
    music: config.music ? new SunoClient(config.music.base, config.music.apiKey) : null,
    jdUnion: config.jdUnion ? new JdUnionClient(config.jdUnion, config.jdUnion.apiBase, clock) : null,
    juhe: {
      train: config.juhe.trainKey ? new JuheTrainClient(config.juhe.trainKey, config.juhe.apiBase) : null,
      flight: config.juhe.flightKey ? new JuheFlightClient(config.juhe.flightKey, config.juhe.apiBase) : null
    },
    sessions: new SessionService(database.db, clock),
    codes: new OneTimeCodes(database.db, clock),
    media,
    metrics,
    resolveHost: options.resolveHost ?? resolveWithDns
  }
  await prepareDummyHash()

  const prefix = config.apiPrefix
  const isApiPath = (url: string) => {
    const p = url.split('?')[0]
    return p === prefix || p.startsWith(`${prefix}/`)
  }

  app.decorateRequest('locale', 'en')
  app.decorateRequest('session', undefined)
  app.decorateRequest('sessionRemembered', false)
  app.decorateRequest('failure', null)
  app.addHook('onRequest', (request, _reply, done) => {
    request.locale = localeFrom(request.headers['accept-language'])
    request.session = undefined
    done()
  })
  // every answer is counted by its route pattern, status and envelope code, and timed
  app.addHook('onResponse', (request, reply, done) => { metrics.observeRequest(request, reply); done() })
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-content-type-options', 'nosniff')
    if (isApiPath(request.url)) reply.header('cache-control', 'no-store')
    done(null, payload)
  })
  registerCompression(app, isApiPath)
  trimImmutableAnswers(app)

  // before the routes: plugins inherit the error handler that exists when they are registered
  const sendPageDocument = await registerStatic(app, config.staticDir)
  installErrorHandling(app, isApiPath, sendPageDocument)
  registerMedia(app, ctx.media, config.media.store === 's3' ? config.media.publicBase : null)
  await registerOpenApi(app)

  await app.register(async (api) => {
    const typed = api.withTypeProvider<TypeBoxTypeProvider>() as unknown as Api
    // POST without a body: validate an empty object, so an optional param may be left out
    typed.addHook('preValidation', (request, _reply, done) => {
      if (request.method === 'POST' && request.body === undefined) request.body = {}
      done()
    })
    passwordLoginRoutes(typed, ctx)
    codeLoginRoutes(typed, ctx)
    registerRoutes(typed, ctx)
    wechatRoutes(typed, ctx)
    sessionRoutes(typed, ctx)
    settingsRoutes(typed, ctx)
    dataRoutes(typed, ctx)
    errorReportRoutes(typed, ctx)
    catalogueRoutes(typed, ctx)
    walletRoutes(typed, ctx)
    purchaseRoutes(typed, ctx)
    prizeRoutes(typed, ctx)
    orderRoutes(typed, ctx)
    afterDrawRoutes(typed, ctx)
    combineRoutes(typed, ctx)
    propRoutes(typed, ctx)
    geoRoutes(typed, ctx)
    expressRoutes(typed, ctx)
    withdrawalRoutes(typed, ctx)
    salesReportRoutes(typed, ctx)
    securityRoutes(typed, ctx)
    operatorRoutes(typed, ctx)
    editorRoutesOf(typed, ctx)
    dropRoutesOf(typed, ctx)
    kujiRoutesOf(typed, ctx)
    raffleRoutesOf(typed, ctx)
    complaintRoutes(typed, ctx)
    orderHistoryRoutes(typed, ctx)
    regionRoutes(typed, ctx)
    notifyRoutes(typed, ctx)
    showRoutesOf(typed, ctx)
    webDomainRoutesOf(typed, ctx)
    speechRoutesOf(typed, ctx)
    visionRoutesOf(typed, ctx)
    aiRoutesOf(typed, ctx)
    taskRoutesOf(typed, ctx)
    bijiaRoutesOf(typed, ctx)
    travelRoutesOf(typed, ctx)
    eventRoutesOf(typed, ctx)
    restockRoutesOf(typed, ctx)
    opsRoutesOf(typed, ctx)
    // last: the generic POST /api/:method_name (static routes win over it whatever the order)
    methodRoutesOf(typed, ctx)
  }, { prefix })
  await serveOpenApi(app, config)

  const stopMaintenance = options.maintenance === false ? () => undefined : startMaintenance(ctx, app.log)
  // launch-event reminders due are sent by the same servers (each claimed before it is sent)
  const stopReminders = options.maintenance === false ? () => undefined : startEventReminders(ctx, app.log)
  // held waiting-room answers are given now, so that closing does not wait for them (up to 20 s)
  app.addHook('preClose', async () => { releaseHeld(ctx.db, ctx.clock) })
  app.addHook('onClose', async () => {
    metrics.close()
    stopMaintenance()
    stopReminders()
    // a PDF being drawn finishes (within its time limit) before the database closes
    await ctx.pdfTasks.close()
    // alerts under way finish (each within the providers' time limit) before the mailer closes
    await ctx.alerts.flush(true)
    mailer?.close?.()
    if (ownsDatabase) await database.close()
  })

  return app
}
