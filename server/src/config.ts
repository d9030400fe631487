/**
 * Configuration from the environment, validated once at start-up. Every bad variable is reported with
 * its name and what is wrong; nothing else in the server reads process.env.
 */
import { X509Certificate, createPrivateKey, createPublicKey } from 'node:crypto'
import fs from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'

export type NodeEnv = 'development' | 'production' | 'test'

/** `false`: use the socket address; `true`: trust every proxy; a number: hops; a list: trusted proxies. */
export type TrustProxy = boolean | number | string[]

import type { EventsConfig } from './domain/events/events'
import type { S3Settings } from './providers/s3'

export interface WeChatConfig {
  /** Mini-program credentials (code2session, URL links). */
  appId?: string
  secret?: string
  /** Official-account / website credentials for web OAuth. */
  oauthAppId?: string
  oauthSecret?: string
  /** Base of the WeChat HTTP API (a local fake in tests). */
  apiBase: string
  /** WeChat's web OAuth authorize page (a local fake in the end-to-end tests). */
  authorizeUrl: string
}

/** WeChat Pay API v3 merchant settings (all or nothing; the key files are read at start-up). */
export interface WeChatPayConfig {
  mchId: string
  /** Serial number of the merchant API certificate (sent as serial_no). */
  merchantSerial: string
  /** The merchant API private key (apiclient_key.pem), PEM. */
  privateKeyPem: string
  /** The APIv3 key: 32 bytes, decrypts notifications. */
  apiV3Key: string
  /** The app the payer pays in (mini-program appid for JSAPI; also used for H5). */
  appId: string
  notifyUrl: string
  /** Where refund results are posted (default: notifyUrl; the same route takes both). */
  refundNotifyUrl: string
  /** The platform certificate serial, or the WeChat Pay public key id (PUB_KEY_ID_...). */
  platformSerial: string
  /** The platform public key, PEM: verifies answers and notifications. */
  platformPublicKeyPem: string
  apiBase: string
}

/** Map providers: the Tencent location service and the AMap web service (each off without its key). */
export interface MapsConfig {
  /** TENCENT_MAP_KEY, and TENCENT_MAP_SK when the key has signature checking on (sig = md5 of path, sorted query and SK). */
  tencent?: { key: string; sk?: string }
  tencentApiBase: string
  /** AMAP_KEY (web service key). Without it the IP location answers from the offline database. */
  amap?: { key: string }
  amapApiBase: string
  /**
   * Whose driving routes and map the app uses for pickup points and events: MAP_PROVIDER=tencent or
   * amap (its key must be set); by default Tencent when its key is set, else AMap; null: neither.
   */
  routeProvider: 'tencentMap' | 'amap' | null
  /**
   * TENCENT_MAP_JS_KEY: a browser key of Tencent's JavaScript API GL (restricted to the shop's domains
   * in the provider's console), for the H5 map; TENCENT_MAP_JS_URL: where its script is (a local fake in tests).
   */
  webMap: { script: string } | null
}

/**
 * Where media bytes live (domain/mediaStore.ts): MEDIA_STORE=database (default) or s3 with S3_ENDPOINT,
 * S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE; MEDIA_PUBLIC_BASE
 * (s3 only): a CDN origin that serves the bucket's media/<sha256>.<ext>, where originals are redirected.
 */
export type MediaConfig =
  | { store: 'database' }
  | { store: 's3'; s3: S3Settings; publicBase: string | null }

/** Kuaidi100's enterprise query API: KUAIDI100_CUSTOMER and KUAIDI100_KEY (off without them). */
export interface ExpressConfig {
  kuaidi100?: { customer: string; key: string }
  apiBase: string
  /** SHIP_FROM_CITY: where the shop's parcels leave from (the parcel map's start), e.g. 广东省深圳市. */
  shipFromCity: string
}

/**
 * The operators' chat robots (operator alerts; /api/feishuRobotText, /api/wechatRobotText): a Feishu
 * custom bot with its signature secret, and a WeCom group robot (its webhook URL carries the key).
 */
export interface RobotsConfig {
  feishu?: { webhookUrl: string; secret: string }
  wecom?: { webhookUrl: string }
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = typeof LOG_LEVELS[number]

export interface Config {
  nodeEnv: NodeEnv
  logLevel: LogLevel
  /**
   * A log line per request ("incoming request", "request completed", at info): in production (and the
   * tests' NODE_ENV=test), and in development only when LOG_LEVEL is set (the end-to-end run sets LOG_LEVEL=info and scans them);
   * `npm start` in development keeps its console for the banner and what goes wrong.
   */
  requestLogs: boolean
  isProduction: boolean
  port: number
  host: string
  dataDir: string
  /** PostgreSQL connection string; SQLite in dataDir when unset. */
  databaseUrl?: string
  /**
   * DATABASE_PREPARED_STATEMENTS (on, off; default on): PostgreSQL runs the hot statements as named
   * statements (server/src/db/named.ts). Off when DATABASE_URL points at pgbouncer before 1.21 in
   * transaction mode.
   */
  databasePreparedStatements: boolean
  /** WORKERS: API processes (node:cluster) sharing the port; more than one needs PostgreSQL. */
  workers: number
  trustProxy: TrustProxy
  staticDir: string
  apiPrefix: string
  /** nodemailer transport URL; unset: mail codes are only logged (development) or mail is off (production). */
  smtpUrl?: string
  mailFrom: string
  sms: { providerUrl?: string; apiKey?: string }
  wechat: WeChatConfig
  /** Unset: WeChat Pay is off (only the sandbox channel, outside production). */
  wechatPay?: WeChatPayConfig
  maps: MapsConfig
  /** Launch-event reminders (domain/events.ts). */
  events: EventsConfig
  express: ExpressConfig
  /**
   * OPERATOR_ACCOUNTS: accounts (user names, phones or e-mail addresses) made operators at every
   * start-up (domain/operators.ts); the first operator of a shop comes from here (or the demo seed).
   */
  operatorAccounts: OperatorAccount[]
  /** FEISHU_WEBHOOK_URL + FEISHU_WEBHOOK_SECRET, WECOM_WEBHOOK_URL: each robot is off without its URL. */
  robots: RobotsConfig
  /** COMPLAINT_MAILBOX: where complaints are mailed, and the only addresses a shopper may mail through /common/mail/send. */
  complaintMailboxes: string[]
  /** ALERT_LANG: the language of the operators' alerts (robots and the complaint mail). */
  alertLocale: 'zh' | 'en'
  /** TTS_ENGINE: espeak-ng (required), off, or unset (espeak-ng when it is installed). */
  ttsEngine: 'espeak-ng' | 'off' | 'auto'
  /** AI_API_BASE (a Dify-compatible API, default Dify's cloud) and AI_API_KEY (unset: AI is off). */
  ai?: { base: string; apiKey: string }
  /** OCR_ENGINE: tesseract (required), off, or unset (tesseract when it is installed with chi_sim and eng). */
  ocrEngine: 'tesseract' | 'off' | 'auto'
  /** IMAGE_API_BASE (an OpenAI-compatible Images API), IMAGE_API_KEY (unset: word2pic is off), IMAGE_MODEL. */
  imageGen?: { base: string; apiKey: string; model: string }
  /** PDF_ENGINE: pdfjs (default: pdfjs-dist with @napi-rs/canvas, from npm) or off. */
  pdfEngine: 'pdfjs' | 'off'
  /** VIDEO_API_BASE (Zhipu BigModel, default its cloud), VIDEO_API_KEY (unset: video is off), VIDEO_MODEL. */
  video?: { base: string; apiKey: string; model: string }
  /** MUSIC_API_BASE (a gcui-art/suno-api server; unset: music is off) and MUSIC_API_KEY (optional Bearer key). */
  music?: { base: string; apiKey: string | null }
  /** JD_UNION_APP_KEY + JD_UNION_APP_SECRET (price comparison; off without them), JD_UNION_API_BASE. */
  jdUnion?: { appKey: string; appSecret: string; apiBase: string }
  /** JUHE_TRAIN_KEY and JUHE_FLIGHT_KEY (each call off without its key), JUHE_API_BASE. */
  juhe: { apiBase: string; trainKey?: string; flightKey?: string }
  /** MEDIA_STORE and the S3_* settings: where uploads, speech and PDF pages are kept. */
  media: MediaConfig
  /**
   * METRICS_TOKEN: a secret a Prometheus server sends as `Authorization: Bearer <token>` to scrape
   * GET /metrics (docs/metrics.md); unset, only an operator's session may read the metrics.
   */
  metricsToken?: string
}

/** An account named in OPERATOR_ACCOUNTS, by the kind of identifier it is. */
export interface OperatorAccount { kind: 'user_name' | 'phone' | 'email'; value: string }

export class ConfigError extends Error {
  readonly problems: string[]
  constructor (problems: string[]) {
    super(`Invalid configuration:\n${problems.map(p => `  - ${p}`).join('\n')}`)
    this.name = 'ConfigError'
    this.problems = problems
  }
}

export const DEFAULTS = {
  PORT: 3000,
  HOST: '127.0.0.1',
  DATA_DIR: '.data',
  STATIC_DIR: 'dist/h5',
  API_PREFIX: '/dev-api',
  WECHAT_API_BASE: 'https://api.weixin.qq.com',
  WECHAT_OAUTH_AUTHORIZE_URL: 'https://open.weixin.qq.com/connect/oauth2/authorize',
  WECHATPAY_API_BASE: 'https://api.mch.weixin.qq.com',
  MAIL_FROM: 'Pickbox <no-reply@localhost>',
  TENCENT_MAP_API_BASE: 'https://apis.map.qq.com',
  AMAP_API_BASE: 'https://restapi.amap.com',
  TENCENT_MAP_JS_URL: 'https://map.qq.com/api/gljs',
  SHIP_FROM_CITY: '广东省深圳市',
  KUAIDI100_API_BASE: 'https://poll.kuaidi100.com',
  JD_UNION_API_BASE: 'https://api.jd.com/routerjson',
  JUHE_API_BASE: 'https://apis.juhe.cn'
} as const

type Env = Record<string, string | undefined>

/** A variable of `env`, trimmed; unset when empty. */
function reader (env: Env): (name: string) => string | undefined {
  return (name: string) => {
    const v = env[name]
    if (v === undefined) return undefined
    const trimmed = v.trim()
    return trimmed === '' ? undefined : trimmed
  }
}

export type StorageConfig = Pick<Config, 'dataDir' | 'databaseUrl'>

function parseStorage (get: (name: string) => string | undefined, cwd: string, problems: string[]): StorageConfig {
  const databaseUrl = get('DATABASE_URL')
  if (databaseUrl && !/^postgres(ql)?:\/\//i.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a PostgreSQL URL (postgres://user:password@host:port/database)')
  }
  return { dataDir: path.resolve(cwd, get('DATA_DIR') ?? DEFAULTS.DATA_DIR), databaseUrl }
}

/**
 * Where the shop keeps its data (DATA_DIR, DATABASE_URL), read as the server reads them, without the
 * rest of the configuration: `npm run backup` and `npm run restore` need only this.
 */
export function loadStorageConfig (env: Env = process.env, cwd = process.cwd()): StorageConfig {
  const problems: string[] = []
  const storage = parseStorage(reader(env), cwd, problems)
  if (problems.length) throw new ConfigError(problems)
  return storage
}

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig (env: Env = process.env, cwd = process.cwd()): Config {
  const problems: string[] = []
  const get = reader(env)

  const nodeEnvRaw = get('NODE_ENV') ?? 'development'
  let nodeEnv: NodeEnv = 'development'
  if (nodeEnvRaw === 'development' || nodeEnvRaw === 'production' || nodeEnvRaw === 'test') {
    nodeEnv = nodeEnvRaw
  } else {
    problems.push(`NODE_ENV must be development, production or test (got "${nodeEnvRaw}")`)
  }

  const logLevelRaw = get('LOG_LEVEL') ?? 'info'
  const logLevel = (LOG_LEVELS as readonly string[]).includes(logLevelRaw) ? logLevelRaw as LogLevel : 'info'
  if (logLevel !== logLevelRaw) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevelRaw}")`)

  const port = parsePort(get('PORT'), problems)
  const host = get('HOST') ?? DEFAULTS.HOST

  const { dataDir, databaseUrl } = parseStorage(get, cwd, problems)
  const preparedRaw = (get('DATABASE_PREPARED_STATEMENTS') ?? 'on').toLowerCase()
  if (preparedRaw !== 'on' && preparedRaw !== 'off') problems.push(`DATABASE_PREPARED_STATEMENTS must be on or off (off when DATABASE_URL points at pgbouncer before 1.21 in transaction mode), got "${preparedRaw.slice(0, 20)}"`)

  const workersRaw = get('WORKERS') ?? '1'
  const workers = Number(workersRaw)
  if (!/^[0-9]+$/.test(workersRaw) || workers < 1 || workers > 64) problems.push(`WORKERS must be a whole number of API processes from 1 to 64 (got "${workersRaw.slice(0, 20)}")`)
  else if (workers > 1 && !databaseUrl) problems.push(`WORKERS=${workers} needs PostgreSQL (DATABASE_URL): the embedded SQLite database is written by one process; unset WORKERS, or set DATABASE_URL`)

  const apiPrefix = get('API_PREFIX') ?? DEFAULTS.API_PREFIX
  if (!/^\/[A-Za-z0-9._~-]+(\/[A-Za-z0-9._~-]+)*$/.test(apiPrefix)) {
    problems.push(`API_PREFIX must start with "/" and not end with "/" (e.g. /dev-api), got "${apiPrefix}"`)
  }

  const smtpUrl = get('SMTP_URL')
  if (smtpUrl && !isUrl(smtpUrl, ['smtp:', 'smtps:'])) {
    problems.push('SMTP_URL must be an smtp:// or smtps:// URL (e.g. smtps://user:pass@smtp.example.com:465)')
  }
  const mailFrom = get('MAIL_FROM') ?? DEFAULTS.MAIL_FROM

  const smsUrl = get('SMS_PROVIDER_URL')
  if (smsUrl && !isUrl(smsUrl, ['http:', 'https:'])) {
    problems.push('SMS_PROVIDER_URL must be an http:// or https:// URL')
  }
  const smsKey = get('SMS_API_KEY')
  if (smsKey && !smsUrl) problems.push('SMS_API_KEY is set but SMS_PROVIDER_URL is not')

  const wechatBase = (get('WECHAT_API_BASE') ?? DEFAULTS.WECHAT_API_BASE).replace(/\/+$/, '')
  if (!isUrl(wechatBase, ['http:', 'https:'])) problems.push('WECHAT_API_BASE must be an http:// or https:// URL')
  const appId = get('WECHAT_APPID')
  const secret = get('WECHAT_SECRET')
  if (!!appId !== !!secret) problems.push('WECHAT_APPID and WECHAT_SECRET must be set together')
  const oauthAppId = get('WECHAT_OAUTH_APPID')
  const oauthSecret = get('WECHAT_OAUTH_SECRET')
  if (!!oauthAppId !== !!oauthSecret) problems.push('WECHAT_OAUTH_APPID and WECHAT_OAUTH_SECRET must be set together')
  const authorizeUrl = get('WECHAT_OAUTH_AUTHORIZE_URL') ?? DEFAULTS.WECHAT_OAUTH_AUTHORIZE_URL
  if (!isUrl(authorizeUrl, ['http:', 'https:'])) problems.push('WECHAT_OAUTH_AUTHORIZE_URL must be an http:// or https:// URL')
  const operatorAccounts = parseOperatorAccounts(get('OPERATOR_ACCOUNTS'), problems)
  const events = parseEventsConfig(get, problems)
  if (events.wechatTemplateId && !appId) problems.push('WECHAT_EVENT_TEMPLATE_ID needs WECHAT_APPID and WECHAT_SECRET (the mini-program that sends it)')
  const ttsRaw = get('TTS_ENGINE') ?? 'auto'
  if (!['espeak-ng', 'off', 'auto'].includes(ttsRaw)) problems.push(`TTS_ENGINE must be espeak-ng or off (unset: espeak-ng when installed), got "${ttsRaw.slice(0, 40)}"`)
  const aiBase = (get('AI_API_BASE') ?? 'https://api.dify.ai/v1').replace(/\/+$/, '')
  if (!isUrl(aiBase, ['http:', 'https:'])) problems.push('AI_API_BASE must be an http:// or https:// URL (a Dify-compatible API, e.g. https://api.dify.ai/v1)')
  const aiKey = get('AI_API_KEY')
  const ocrRaw = get('OCR_ENGINE') ?? 'auto'
  if (!['tesseract', 'off', 'auto'].includes(ocrRaw)) problems.push(`OCR_ENGINE must be tesseract or off (unset: tesseract when installed), got "${ocrRaw.slice(0, 40)}"`)
  const imageBase = (get('IMAGE_API_BASE') ?? 'https://api.openai.com/v1').replace(/\/+$/, '')
  if (!isUrl(imageBase, ['http:', 'https:'])) problems.push('IMAGE_API_BASE must be an http:// or https:// URL (an OpenAI-compatible Images API, e.g. https://api.openai.com/v1)')
  const imageKey = get('IMAGE_API_KEY')
  const imageModel = get('IMAGE_MODEL') ?? 'dall-e-3'
  if (!/^[\w.:/-]{1,100}$/.test(imageModel)) problems.push('IMAGE_MODEL must be a model name (letters, digits, . : / _ -), e.g. dall-e-3')
  const pdfRaw = get('PDF_ENGINE') ?? 'pdfjs'
  if (pdfRaw !== 'pdfjs' && pdfRaw !== 'off') problems.push(`PDF_ENGINE must be pdfjs or off, got "${pdfRaw.slice(0, 40)}"`)
  const videoBase = (get('VIDEO_API_BASE') ?? 'https://open.bigmodel.cn/api/paas/v4').replace(/\/+$/, '')
  if (!isUrl(videoBase, ['http:', 'https:'])) problems.push('VIDEO_API_BASE must be an http:// or https:// URL (Zhipu BigModel, e.g. https://open.bigmodel.cn/api/paas/v4)')
  const videoKey = get('VIDEO_API_KEY')
  const videoModel = get('VIDEO_MODEL') ?? 'cogvideox-flash'
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(videoModel)) problems.push('VIDEO_MODEL must be a model name such as cogvideox-flash or cogvideox-3')
  const musicBase = get('MUSIC_API_BASE')?.replace(/\/+$/, '')
  if (musicBase && !isUrl(musicBase, ['http:', 'https:'])) problems.push('MUSIC_API_BASE must be an http:// or https:// URL (a gcui-art/suno-api server, e.g. http://127.0.0.1:3001)')
  if (!musicBase && get('MUSIC_API_KEY')) problems.push('MUSIC_API_KEY needs MUSIC_API_BASE (the suno-api server it unlocks)')
  const jdKey = get('JD_UNION_APP_KEY')
  const jdSecret = get('JD_UNION_APP_SECRET')
  if (!!jdKey !== !!jdSecret) problems.push('JD_UNION_APP_KEY and JD_UNION_APP_SECRET must be set together (the app\'s key and secret on union.jd.com)')
  const jdBase = get('JD_UNION_API_BASE') ?? DEFAULTS.JD_UNION_API_BASE
  if (!isUrl(jdBase, ['http:', 'https:'])) problems.push('JD_UNION_API_BASE must be an http:// or https:// URL (JD\'s router, e.g. https://api.jd.com/routerjson)')
  const juheBase = (get('JUHE_API_BASE') ?? DEFAULTS.JUHE_API_BASE).replace(/\/+$/, '')
  if (!isUrl(juheBase, ['http:', 'https:'])) problems.push('JUHE_API_BASE must be an http:// or https:// URL (e.g. https://apis.juhe.cn)')

  const metricsToken = get('METRICS_TOKEN')
  if (metricsToken !== undefined && !/^[A-Za-z0-9_-]{32,200}$/.test(metricsToken)) {
    problems.push('METRICS_TOKEN must be 32 to 200 letters, digits, - or _ (e.g. the output of `openssl rand -hex 32`)')
  }

  const trustProxy = parseTrustProxy(get('TRUST_PROXY'), problems)
  const wechatPay = parseWeChatPay(get, cwd, nodeEnv === 'production', problems)
  const maps = parseMaps(get, problems)
  const express = parseExpress(get, problems)
  const robots = parseRobots(get, problems)
  const complaintMailboxes = parseMailboxes(get('COMPLAINT_MAILBOX'), problems)
  const media = parseMedia(get, nodeEnv === 'production', problems)
  const alertLang = (get('ALERT_LANG') ?? 'zh').toLowerCase()
  if (alertLang !== 'zh' && alertLang !== 'en') problems.push(`ALERT_LANG must be zh or en (got "${alertLang}")`)

  if (problems.length) throw new ConfigError(problems)

  return {
    nodeEnv,
    isProduction: nodeEnv === 'production',
    logLevel,
    requestLogs: nodeEnv !== 'development' || get('LOG_LEVEL') !== undefined,
    port,
    host,
    dataDir,
    databaseUrl,
    databasePreparedStatements: preparedRaw !== 'off',
    workers: Number.isInteger(workers) && workers >= 1 ? workers : 1,
    trustProxy,
    staticDir: path.resolve(cwd, get('STATIC_DIR') ?? DEFAULTS.STATIC_DIR),
    apiPrefix,
    smtpUrl,
    mailFrom,
    sms: { providerUrl: smsUrl, apiKey: smsKey },
    wechat: { appId, secret, oauthAppId, oauthSecret, apiBase: wechatBase, authorizeUrl },
    events,
    wechatPay,
    maps,
    express,
    operatorAccounts,
    robots,
    complaintMailboxes,
    alertLocale: alertLang === 'en' ? 'en' : 'zh',
    ttsEngine: ttsRaw as Config['ttsEngine'],
    ...(aiKey ? { ai: { base: aiBase, apiKey: aiKey } } : {}),
    ocrEngine: ocrRaw as Config['ocrEngine'],
    ...(imageKey ? { imageGen: { base: imageBase, apiKey: imageKey, model: imageModel } } : {}),
    pdfEngine: pdfRaw === 'off' ? 'off' : 'pdfjs',
    ...(videoKey ? { video: { base: videoBase, apiKey: videoKey, model: videoModel } } : {}),
    ...(musicBase ? { music: { base: musicBase, apiKey: get('MUSIC_API_KEY') ?? null } } : {}),
    ...(jdKey && jdSecret ? { jdUnion: { appKey: jdKey, appSecret: jdSecret, apiBase: jdBase } } : {}),
    juhe: { apiBase: juheBase, trainKey: get('JUHE_TRAIN_KEY'), flightKey: get('JUHE_FLIGHT_KEY') },
    media,
    ...(metricsToken ? { metricsToken } : {})
  }
}

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'MEDIA_PUBLIC_BASE'] as const
const S3_REQUIRED = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const

/**
 * MEDIA_STORE (database | s3) and, for s3, the bucket: every S3_* variable but S3_FORCE_PATH_STYLE
 * (default true, except on AWS's own *.amazonaws.com endpoints, which take virtual-hosted requests) and
 * MEDIA_PUBLIC_BASE (optional). In production the endpoint and the public base must be https:// (the
 * files travel in the clear otherwise, and a browser on the https shop refuses http pictures).
 */
function parseMedia (get: (name: string) => string | undefined, production: boolean, problems: string[]): MediaConfig {
  const store = get('MEDIA_STORE') ?? 'database'
  if (store !== 'database' && store !== 's3') {
    problems.push(`MEDIA_STORE must be database or s3 (got ${JSON.stringify(store.slice(0, 40))})`)
    return { store: 'database' }
  }
  if (store === 'database') {
    const stray = S3_VARIABLES.filter(n => get(n) !== undefined)
    if (stray.length) problems.push(`${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but MEDIA_STORE is not s3: set MEDIA_STORE=s3 to keep media in the bucket, or unset ${stray.length > 1 ? 'them' : 'it'}`)
    return { store: 'database' }
  }
  const missing = S3_REQUIRED.filter(n => get(n) === undefined)
  if (missing.length) {
    problems.push(`MEDIA_STORE=s3 needs ${missing.join(', ')}`)
    return { store: 'database' }
  }
  const before = problems.length
  const protocols = production ? ['https:'] : ['http:', 'https:']
  const endpoint = get('S3_ENDPOINT')!.replace(/\/+$/, '')
  if (!isUrl(endpoint, protocols) || new URL(endpoint).pathname !== '/' || new URL(endpoint).search || new URL(endpoint).username) {
    problems.push(`S3_ENDPOINT must be the storage service's ${production ? 'https://' : 'http(s)://'} origin without a path, e.g. https://s3.amazonaws.com, https://oss-cn-hangzhou.aliyuncs.com or http://127.0.0.1:9000 (MinIO)`)
  }
  const region = get('S3_REGION')!
  if (!/^[a-z0-9-]{2,40}$/.test(region)) problems.push('S3_REGION must be the bucket\'s region, e.g. us-east-1, cn-hangzhou or ap-guangzhou (lower-case letters, digits and -)')
  const bucket = get('S3_BUCKET')!
  // S3's bucket naming rules: 3-63 characters, lower-case letters, digits, dots and hyphens, a letter or digit at each end
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..')) problems.push('S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit')
  const accessKeyId = get('S3_ACCESS_KEY_ID')!
  if (!/^[\x21-\x7e]{1,128}$/.test(accessKeyId)) problems.push('S3_ACCESS_KEY_ID must be the access key id (printable characters, no spaces)')
  const secretAccessKey = get('S3_SECRET_ACCESS_KEY')!
  if (!/^[\x21-\x7e]{1,256}$/.test(secretAccessKey)) problems.push('S3_SECRET_ACCESS_KEY must be the secret access key (printable characters, no spaces)')
  const pathStyleRaw = get('S3_FORCE_PATH_STYLE')
  let forcePathStyle = true
  if (pathStyleRaw === undefined) {
    forcePathStyle = !(isUrl(endpoint, ['http:', 'https:']) && /(^|\.)amazonaws\.com$/.test(new URL(endpoint).hostname))
  } else if (['true', '1', 'on', 'yes'].includes(pathStyleRaw.toLowerCase())) {
    forcePathStyle = true
  } else if (['false', '0', 'off', 'no'].includes(pathStyleRaw.toLowerCase())) {
    forcePathStyle = false
  } else {
    problems.push(`S3_FORCE_PATH_STYLE must be true (https://endpoint/bucket/key) or false (https://bucket.endpoint/key), got ${JSON.stringify(pathStyleRaw.slice(0, 20))}`)
  }
  if (!forcePathStyle && bucket.includes('.') && endpoint.startsWith('https:')) problems.push('S3_FORCE_PATH_STYLE=false over https needs a S3_BUCKET without dots (a dotted bucket name breaks the TLS certificate of bucket.endpoint)')
  const publicBaseRaw = get('MEDIA_PUBLIC_BASE')
  const publicBase = publicBaseRaw ? publicBaseRaw.replace(/\/+$/, '') : null
  if (publicBase !== null && (!isUrl(publicBase, protocols) || new URL(publicBase).search || new URL(publicBase).hash)) {
    problems.push(`MEDIA_PUBLIC_BASE must be the CDN's ${production ? 'https://' : 'http(s)://'} origin (or origin and path) that serves the bucket's media/<sha256>.<ext>, e.g. https://cdn.example.com`)
  }
  if (problems.length > before) return { store: 'database' }
  return { store: 's3', s3: { endpoint, region, bucket, accessKeyId, secretAccessKey, forcePathStyle }, publicBase }
}

/**
 * FEISHU_WEBHOOK_URL with FEISHU_WEBHOOK_SECRET (the bot's signature check must be on: an unsigned
 * webhook would take anyone's text), and WECOM_WEBHOOK_URL (.../cgi-bin/webhook/send?key=...).
 */
function parseRobots (get: (name: string) => string | undefined, problems: string[]): RobotsConfig {
  const out: RobotsConfig = {}
  const feishuUrl = get('FEISHU_WEBHOOK_URL')
  const feishuSecret = get('FEISHU_WEBHOOK_SECRET')
  if (feishuUrl && !isUrl(feishuUrl, ['http:', 'https:'])) problems.push('FEISHU_WEBHOOK_URL must be the bot\'s webhook URL (https://open.feishu.cn/open-apis/bot/v2/hook/...)')
  if (feishuUrl && !feishuSecret) problems.push('FEISHU_WEBHOOK_SECRET must be set with FEISHU_WEBHOOK_URL: turn on the bot\'s signature check (签名校验) and copy its secret')
  if (feishuSecret && !feishuUrl) problems.push('FEISHU_WEBHOOK_SECRET is set but FEISHU_WEBHOOK_URL is not')
  if (feishuUrl && feishuSecret && isUrl(feishuUrl, ['http:', 'https:'])) out.feishu = { webhookUrl: feishuUrl, secret: feishuSecret }
  const wecomUrl = get('WECOM_WEBHOOK_URL')
  if (wecomUrl) {
    if (!isUrl(wecomUrl, ['http:', 'https:']) || !new URL(wecomUrl).searchParams.get('key')) {
      problems.push('WECOM_WEBHOOK_URL must be the group robot\'s webhook URL with its key (https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=...)')
    } else {
      out.wecom = { webhookUrl: wecomUrl }
    }
  }
  return out
}

/** COMPLAINT_MAILBOX: comma-separated e-mail addresses (lower-cased). */
function parseMailboxes (raw: string | undefined, problems: string[]): string[] {
  if (raw === undefined) return []
  const out: string[] = []
  for (const entry of raw.split(',').map(s => s.trim()).filter(Boolean)) {
    if (entry.length > 254 || !OPERATOR_EMAIL.test(entry)) problems.push(`COMPLAINT_MAILBOX: "${entry.slice(0, 60)}" is not an e-mail address`)
    else if (!out.includes(entry.toLowerCase())) out.push(entry.toLowerCase())
  }
  return out
}

const OPERATOR_PHONE = /^1[3-9]\d{9}$/
const OPERATOR_EMAIL = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{1,60}$/

/**
 * OPERATOR_ACCOUNTS: a comma-separated list of accounts, each an e-mail address (has an @), a mainland
 * mobile number (11 digits, 1[3-9]..., +86 allowed) or else a user name. Blank entries are ignored;
 * control characters, an entry over 254 characters or a malformed address are refused.
 */
function parseOperatorAccounts (raw: string | undefined, problems: string[]): OperatorAccount[] {
  if (raw === undefined) return []
  const out: OperatorAccount[] = []
  for (const entry of raw.split(',').map(s => s.trim()).filter(Boolean)) {
    // eslint-disable-next-line no-control-regex
    if (entry.length > 254 || /[\u0000-\u001f\u007f]/.test(entry)) {
      problems.push(`OPERATOR_ACCOUNTS: "${entry.slice(0, 40)}" is not a user name, phone or e-mail address`)
      continue
    }
    if (entry.includes('@')) {
      if (!OPERATOR_EMAIL.test(entry)) problems.push(`OPERATOR_ACCOUNTS: "${entry}" is not a valid e-mail address`)
      else out.push({ kind: 'email', value: entry.toLowerCase() })
    } else if (OPERATOR_PHONE.test(entry.replace(/^\+86/, ''))) {
      out.push({ kind: 'phone', value: entry.replace(/^\+86/, '') })
    } else {
      out.push({ kind: 'user_name', value: entry })
    }
  }
  return out
}

function apiBase (get: (name: string) => string | undefined, name: string, fallback: string, problems: string[]): string {
  const base = (get(name) ?? fallback).replace(/\/+$/, '')
  if (!isUrl(base, ['http:', 'https:'])) problems.push(`${name} must be an http:// or https:// URL`)
  return base
}

/** TENCENT_MAP_KEY (+ TENCENT_MAP_SK), AMAP_KEY, and their *_API_BASE (local fakes in tests). */
function parseMaps (get: (name: string) => string | undefined, problems: string[]): MapsConfig {
  const tencentApiBase = apiBase(get, 'TENCENT_MAP_API_BASE', DEFAULTS.TENCENT_MAP_API_BASE, problems)
  const amapApiBase = apiBase(get, 'AMAP_API_BASE', DEFAULTS.AMAP_API_BASE, problems)
  const tencentKey = get('TENCENT_MAP_KEY')
  const tencentSk = get('TENCENT_MAP_SK')
  if (tencentKey && !/^[A-Za-z0-9-]{10,64}$/.test(tencentKey)) problems.push('TENCENT_MAP_KEY must be a Tencent location service key (e.g. OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77)')
  if (tencentSk && !tencentKey) problems.push('TENCENT_MAP_SK is set but TENCENT_MAP_KEY is not')
  if (tencentSk && !/^[A-Za-z0-9]{8,64}$/.test(tencentSk)) problems.push('TENCENT_MAP_SK must be the key\'s secret key (SK: letters and digits)')
  const amapKey = get('AMAP_KEY')
  if (amapKey && !/^[A-Za-z0-9]{16,64}$/.test(amapKey)) problems.push('AMAP_KEY must be an AMap web service key (32 letters and digits)')
  const preferred = get('MAP_PROVIDER')
  let routeProvider: MapsConfig['routeProvider'] = tencentKey ? 'tencentMap' : amapKey ? 'amap' : null
  if (preferred !== undefined && preferred !== '') {
    if (preferred === 'tencent' && !tencentKey) problems.push('MAP_PROVIDER=tencent needs TENCENT_MAP_KEY')
    else if (preferred === 'amap' && !amapKey) problems.push('MAP_PROVIDER=amap needs AMAP_KEY')
    else if (preferred !== 'tencent' && preferred !== 'amap') problems.push(`MAP_PROVIDER must be tencent or amap (got ${JSON.stringify(preferred)})`)
    else routeProvider = preferred === 'tencent' ? 'tencentMap' : 'amap'
  }
  const jsKey = get('TENCENT_MAP_JS_KEY')
  const jsUrl = apiBase(get, 'TENCENT_MAP_JS_URL', DEFAULTS.TENCENT_MAP_JS_URL, problems)
  if (jsKey && !/^[A-Za-z0-9-]{10,64}$/.test(jsKey)) problems.push('TENCENT_MAP_JS_KEY must be a Tencent JavaScript API GL key (e.g. OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77)')
  return {
    tencent: tencentKey ? { key: tencentKey, ...(tencentSk ? { sk: tencentSk } : {}) } : undefined,
    tencentApiBase,
    amap: amapKey ? { key: amapKey } : undefined,
    amapApiBase,
    routeProvider,
    webMap: jsKey ? { script: `${jsUrl}?v=1.exp&key=${encodeURIComponent(jsKey)}` } : null
  }
}

/** KUAIDI100_CUSTOMER and KUAIDI100_KEY together, and KUAIDI100_API_BASE. */
function parseExpress (get: (name: string) => string | undefined, problems: string[]): ExpressConfig {
  const base = apiBase(get, 'KUAIDI100_API_BASE', DEFAULTS.KUAIDI100_API_BASE, problems)
  const customer = get('KUAIDI100_CUSTOMER')
  const key = get('KUAIDI100_KEY')
  if (!!customer !== !!key) problems.push('KUAIDI100_CUSTOMER and KUAIDI100_KEY must be set together')
  if (customer && !/^[A-Za-z0-9]{8,64}$/.test(customer)) problems.push('KUAIDI100_CUSTOMER must be the customer id Kuaidi100 gives (letters and digits)')
  if (key && !/^[A-Za-z0-9]{4,64}$/.test(key)) problems.push('KUAIDI100_KEY must be the authorization key Kuaidi100 gives (letters and digits)')
  const shipFromCity = (get('SHIP_FROM_CITY') ?? DEFAULTS.SHIP_FROM_CITY).trim()
  if (!shipFromCity || shipFromCity.length > 60) problems.push('SHIP_FROM_CITY must be a city name of at most 60 characters, e.g. 广东省深圳市')
  return { kuaidi100: customer && key ? { customer, key } : undefined, apiBase: base, shipFromCity }
}

const WECHATPAY_REQUIRED = ['WECHATPAY_MCHID', 'WECHATPAY_SERIAL', 'WECHATPAY_PRIVATE_KEY_PATH', 'WECHATPAY_APIV3_KEY', 'WECHATPAY_APPID', 'WECHATPAY_NOTIFY_URL'] as const
const WECHATPAY_PLATFORM = ['WECHATPAY_PLATFORM_CERT_PATH', 'WECHATPAY_PLATFORM_PUBLIC_KEY_PATH', 'WECHATPAY_PLATFORM_PUBLIC_KEY_ID'] as const

function readFile (file: string, cwd: string): string | null {
  try {
    return fs.readFileSync(path.resolve(cwd, file), 'utf8')
  } catch {
    return null
  }
}

/**
 * WECHATPAY_*: all of WECHATPAY_REQUIRED plus the platform key, either WECHATPAY_PLATFORM_CERT_PATH
 * (platform certificate; its serial is read from it) or WECHATPAY_PLATFORM_PUBLIC_KEY_PATH with
 * WECHATPAY_PLATFORM_PUBLIC_KEY_ID (the "WeChat Pay public key" mode). None set: WeChat Pay is off.
 */
function parseWeChatPay (get: (name: string) => string | undefined, cwd: string, production: boolean, problems: string[]): WeChatPayConfig | undefined {
  const apiBase = (get('WECHATPAY_API_BASE') ?? DEFAULTS.WECHATPAY_API_BASE).replace(/\/+$/, '')
  if (!isUrl(apiBase, ['http:', 'https:'])) problems.push('WECHATPAY_API_BASE must be an http:// or https:// URL')
  const given = [...WECHATPAY_REQUIRED, ...WECHATPAY_PLATFORM].filter(n => get(n) !== undefined)
  if (!given.length) return undefined
  const missing: string[] = WECHATPAY_REQUIRED.filter(n => get(n) === undefined)
  const certPath = get('WECHATPAY_PLATFORM_CERT_PATH')
  const keyPath = get('WECHATPAY_PLATFORM_PUBLIC_KEY_PATH')
  const keyId = get('WECHATPAY_PLATFORM_PUBLIC_KEY_ID')
  if (!certPath && !(keyPath && keyId)) missing.push('WECHATPAY_PLATFORM_CERT_PATH (or WECHATPAY_PLATFORM_PUBLIC_KEY_PATH with WECHATPAY_PLATFORM_PUBLIC_KEY_ID)')
  if (missing.length) {
    problems.push(`WeChat Pay needs every WECHATPAY_* variable; missing: ${missing.join(', ')}`)
    return undefined
  }
  const before = problems.length
  const mchId = get('WECHATPAY_MCHID')!
  if (!/^\d{6,32}$/.test(mchId)) problems.push('WECHATPAY_MCHID must be the merchant id (digits)')
  const merchantSerial = get('WECHATPAY_SERIAL')!
  if (!/^[0-9A-Fa-f]{8,64}$/.test(merchantSerial)) problems.push('WECHATPAY_SERIAL must be the merchant certificate serial number (hex)')
  const privateKeyPem = readFile(get('WECHATPAY_PRIVATE_KEY_PATH')!, cwd)
  try {
    if (privateKeyPem === null) throw new Error('unreadable')
    const key = createPrivateKey(privateKeyPem)
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA')
  } catch {
    problems.push('WECHATPAY_PRIVATE_KEY_PATH must name a readable PEM RSA private key (apiclient_key.pem)')
  }
  const apiV3Key = get('WECHATPAY_APIV3_KEY')!
  if (Buffer.byteLength(apiV3Key, 'utf8') !== 32) problems.push('WECHATPAY_APIV3_KEY must be exactly 32 bytes')
  const appId = get('WECHATPAY_APPID')!
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(appId)) problems.push('WECHATPAY_APPID must be an appid (e.g. wx1234567890abcdef)')
  const notifyUrl = get('WECHATPAY_NOTIFY_URL')!
  if (!isUrl(notifyUrl, production ? ['https:'] : ['http:', 'https:'])) {
    problems.push(`WECHATPAY_NOTIFY_URL must be an ${production ? 'https://' : 'http(s)://'} URL (ending in /generalOrder/notify/wechat)`)
  }
  const refundNotifyUrl = get('WECHATPAY_REFUND_NOTIFY_URL') ?? notifyUrl
  if (!isUrl(refundNotifyUrl, production ? ['https:'] : ['http:', 'https:'])) {
    problems.push(`WECHATPAY_REFUND_NOTIFY_URL must be an ${production ? 'https://' : 'http(s)://'} URL (default: WECHATPAY_NOTIFY_URL)`)
  }
  let platformSerial = ''
  let platformPublicKeyPem = ''
  if (certPath) {
    try {
      const pem = readFile(certPath, cwd)
      if (pem === null) throw new Error('unreadable')
      const cert = new X509Certificate(pem)
      platformSerial = cert.serialNumber.toUpperCase()
      platformPublicKeyPem = cert.publicKey.export({ type: 'spki', format: 'pem' }).toString()
    } catch {
      problems.push('WECHATPAY_PLATFORM_CERT_PATH must name a readable PEM platform certificate')
    }
  } else {
    try {
      const pem = readFile(keyPath!, cwd)
      if (pem === null) throw new Error('unreadable')
      platformPublicKeyPem = createPublicKey(pem).export({ type: 'spki', format: 'pem' }).toString()
    } catch {
      problems.push('WECHATPAY_PLATFORM_PUBLIC_KEY_PATH must name a readable PEM public key')
    }
    platformSerial = keyId!
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(platformSerial)) problems.push('WECHATPAY_PLATFORM_PUBLIC_KEY_ID must be the public key id (PUB_KEY_ID_...)')
  }
  if (problems.length > before) return undefined
  return { mchId, merchantSerial, privateKeyPem: privateKeyPem!, apiV3Key, appId, notifyUrl, refundNotifyUrl, platformSerial, platformPublicKeyPem, apiBase }
}

function parsePort (raw: string | undefined, problems: string[]): number {
  if (raw === undefined) return DEFAULTS.PORT
  if (!/^\d+$/.test(raw) || Number(raw) > 65535) {
    problems.push(`PORT must be an integer from 0 to 65535 (got "${raw}")`)
    return DEFAULTS.PORT
  }
  return Number(raw)
}

function isUrl (raw: string, protocols: string[]): boolean {
  try {
    return protocols.includes(new URL(raw).protocol)
  } catch {
    return false
  }
}

/**
 * TRUST_PROXY: off (default) | on | a hop count | a comma-separated list of proxy addresses or CIDRs.
 * Only turn it on behind a proxy you run: a trusted X-Forwarded-For decides the client IP that the
 * per-IP rate limits count.
 */
function parseTrustProxy (raw: string | undefined, problems: string[]): TrustProxy {
  if (raw === undefined) return false
  const v = raw.toLowerCase()
  if (['off', 'false', 'no', '0'].includes(v)) return false
  if (['on', 'true', 'yes'].includes(v)) return true
  if (/^\d+$/.test(v)) return Number(v)
  const entries = raw.split(',').map(s => s.trim()).filter(Boolean)
  const bad = entries.filter(e => {
    const [addr, bits, extra] = e.split('/')
    if (extra !== undefined || !isIP(addr)) return true
    if (bits === undefined) return false
    const max = isIP(addr) === 4 ? 32 : 128
    return !/^\d+$/.test(bits) || Number(bits) > max
  })
  if (bad.length || !entries.length) {
    problems.push(`TRUST_PROXY must be off, on, a hop count or a list of IP addresses/CIDRs (bad: ${bad.join(', ') || raw})`)
    return false
  }
  return entries
}

/** Which optional features the configuration enables. */
export function features (config: Config) {
  const dev = !config.isProduction
  return {
    /** Mail codes: SMTP when configured; logged only, in development. */
    mail: !!config.smtpUrl || dev,
    sms: !!config.sms.providerUrl || dev,
    weapp: !!(config.wechat.appId && config.wechat.secret),
    wechatWeb: !!(config.wechat.oauthAppId && config.wechat.oauthSecret)
  }
}

/**
 * Launch-event reminders: WECHAT_EVENT_TEMPLATE_ID (the subscription message template chosen in the
 * mini-program's console; unset: reminders go by mail only), WECHAT_EVENT_TEMPLATE_KEYS (its four
 * keywords for the event's name, time, place and a note, as the console lists them; default
 * thing1,time2,thing3,thing4), WECHAT_MINIPROGRAM_STATE (formal, trial or developer: which version a
 * message opens) and EVENT_REMINDER_SWEEP_MS (how often due reminders are looked for; 60000).
 */
function parseEventsConfig (get: (name: string) => string | undefined, problems: string[]): EventsConfig {
  const wechatTemplateId = get('WECHAT_EVENT_TEMPLATE_ID')
  if (wechatTemplateId !== undefined && !/^[A-Za-z0-9_-]{1,128}$/.test(wechatTemplateId)) problems.push('WECHAT_EVENT_TEMPLATE_ID must be the template id the mini-program console shows (letters, digits, - and _)')
  const keys = (get('WECHAT_EVENT_TEMPLATE_KEYS') ?? 'thing1,time2,thing3,thing4').split(',').map(k => k.trim())
  if (keys.length !== 4 || !keys.every(k => /^[a-z_]+[0-9]+$/.test(k))) problems.push('WECHAT_EVENT_TEMPLATE_KEYS must be four keywords of the template, e.g. thing1,time2,thing3,thing4')
  const state = get('WECHAT_MINIPROGRAM_STATE') ?? 'formal'
  if (!['formal', 'trial', 'developer'].includes(state)) problems.push('WECHAT_MINIPROGRAM_STATE must be formal, trial or developer')
  const sweepRaw = get('EVENT_REMINDER_SWEEP_MS') ?? '60000'
  const sweepMs = Number(sweepRaw)
  if (!Number.isInteger(sweepMs) || sweepMs < 1000 || sweepMs > 3_600_000) problems.push('EVENT_REMINDER_SWEEP_MS must be a whole number of milliseconds from 1000 to 3600000')
  return {
    ...(wechatTemplateId ? { wechatTemplateId } : {}),
    wechatTemplateKeys: (keys.length === 4 ? keys : ['thing1', 'time2', 'thing3', 'thing4']) as EventsConfig['wechatTemplateKeys'],
    miniProgramState: state as EventsConfig['miniProgramState'],
    sweepMs: Number.isInteger(sweepMs) ? sweepMs : 60000
  }
}
