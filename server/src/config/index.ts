/**
 * Configuration from the environment, validated once at start-up. Every bad variable is reported with
 * its name and what is wrong; nothing else in the server reads process.env.
 *
 * schema.ts lists every variable (TypeBox: format, default, meaning); one file per area parses its own
 * variables into its part of Config, with the precise message for each bad value. A leaf: nothing here
 * imports the rest of the server.
 */
import { ConfigError, reader, type Env, type Problems } from './env'
import { parseEngines, type EnginesConfig } from './engines'
import { parseEvents, type EventsConfig } from './events'
import { parseMail, type MailConfig } from './mail'
import { parseMaps, type MapsConfig } from './maps'
import { parseMedia, type MediaConfig } from './media'
import { parseAlertLocale, parseMailboxes, parseOperatorAccounts, parseRobots, type OperatorAccount, type RobotsConfig } from './operators'
import { ENV_SCHEMA } from './schema'
import { parseAccess, parseServer, parseStorage, type AccessConfig, type ServerConfig, type StorageConfig } from './server'
import { parseExpress, parseLookups, type ExpressConfig, type LookupsConfig } from './services'
import { parseWeChat, type WeChatConfig } from './wechat'
import { parseWeChatPay, type WeChatPayConfig } from './wechatpay'

export { ConfigError } from './env'
export { DEFAULTS, ENV_NAMES, ENV_SCHEMA, type EnvName, type EnvVariables } from './schema'
export { LOG_LEVELS, type LogLevel, type NodeEnv, type StorageConfig, type TrustProxy } from './server'
export type { EventsConfig, ExpressConfig, MapsConfig, MediaConfig, OperatorAccount, RobotsConfig, WeChatConfig, WeChatPayConfig }
export type { S3Settings } from './media'

export interface Config extends ServerConfig, AccessConfig, MailConfig, EnginesConfig, LookupsConfig {
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
  /** MEDIA_STORE and the S3_* settings: where uploads, speech and PDF pages are kept. */
  media: MediaConfig
}

/**
 * Where the shop keeps its data (DATA_DIR, DATABASE_URL), read as the server reads them, without the
 * rest of the configuration: `npm run backup` and `npm run restore` need only this.
 */
export function loadStorageConfig (env: Env = process.env, cwd = process.cwd()): StorageConfig {
  const problems: Problems = []
  const storage = parseStorage(reader(env, ENV_SCHEMA.properties), cwd, problems)
  if (problems.length) throw new ConfigError(problems)
  return storage
}

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig (env: Env = process.env, cwd = process.cwd()): Config {
  const problems: Problems = []
  const vars = reader(env, ENV_SCHEMA.properties)
  // the areas in the order their problems are listed
  const server = parseServer(vars, cwd, problems)
  const mail = parseMail(vars, problems)
  const wechat = parseWeChat(vars, problems)
  const operatorAccounts = parseOperatorAccounts(vars, problems)
  const events = parseEvents(vars, !!wechat.appId, problems)
  const engines = parseEngines(vars, problems)
  const lookups = parseLookups(vars, problems)
  const access = parseAccess(vars, problems)
  const wechatPay = parseWeChatPay(vars, cwd, server.isProduction, problems)
  const maps = parseMaps(vars, problems)
  const express = parseExpress(vars, problems)
  const robots = parseRobots(vars, problems)
  const complaintMailboxes = parseMailboxes(vars, problems)
  const media = parseMedia(vars, server.isProduction, problems)
  const alertLocale = parseAlertLocale(vars, problems)

  if (problems.length) throw new ConfigError(problems)

  return {
    ...server,
    trustProxy: access.trustProxy,
    ...mail,
    wechat,
    events,
    wechatPay,
    maps,
    express,
    operatorAccounts,
    robots,
    complaintMailboxes,
    alertLocale,
    ...engines,
    ...lookups,
    media,
    ...(access.metricsToken ? { metricsToken: access.metricsToken } : {})
  }
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
