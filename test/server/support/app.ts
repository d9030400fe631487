/** Builds the app for a test: a fresh database, a movable clock, captured logs, inject helpers. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { loggerOptions } from '../../../server/src/http/logging'
import { buildApp, type BuildAppOptions } from '../../../server/src/app'
import { loadConfig } from '../../../server/src/config'
import type { Db } from '../../../server/src/db'
import type { Dialect } from '../../../server/src/db/dialect'
import { hashPassword } from '../../../server/src/security/passwords'
import { insertUser } from '../../../server/src/domain/account/users'
import type { UserRow } from '../../../server/src/db/schema'
import { createTestDatabase } from './db'
import { WX, type FakeSms, type FakeSmtp, type FakeWeChat } from './fakes'
import { testResolveHost } from './resolver'

export const PREFIX = '/dev-api'

export class TestClock {
  ms: number
  constructor (start = Date.parse('2026-03-01T08:00:00.000Z')) { this.ms = start }
  readonly now = () => this.ms
  advance (ms: number) { this.ms += ms }
}

export interface Fakes { smtp?: FakeSmtp; sms?: FakeSms; wechat?: FakeWeChat }

export function envFor (fakes: Fakes, extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = { NODE_ENV: 'test', STATIC_DIR: '/nonexistent-h5-build', DATA_DIR: '/nonexistent-data' }
  // what TTS_ENGINE=auto and OCR_ENGINE=auto come to here, asked once for the run (global-setup.js)
  if (process.env.TEST_TTS_ENGINE) env.TTS_ENGINE = process.env.TEST_TTS_ENGINE
  if (process.env.TEST_OCR_ENGINE) env.OCR_ENGINE = process.env.TEST_OCR_ENGINE
  // the code compiled from the routes' schemas, kept for the run (global-setup.js)
  if (process.env.SCHEMA_CODE_DIR) env.SCHEMA_CODE_DIR = process.env.SCHEMA_CODE_DIR
  if (fakes.smtp) Object.assign(env, { SMTP_URL: fakes.smtp.url, MAIL_FROM: 'Shop <shop@example.test>' })
  if (fakes.sms) Object.assign(env, { SMS_PROVIDER_URL: fakes.sms.url, SMS_API_KEY: 'sms-test-key' })
  if (fakes.wechat) {
    Object.assign(env, {
      WECHAT_API_BASE: fakes.wechat.url,
      WECHAT_APPID: WX.appId,
      WECHAT_SECRET: WX.secret,
      WECHAT_OAUTH_APPID: WX.oauthAppId,
      WECHAT_OAUTH_SECRET: WX.oauthSecret
    })
  }
  return { ...env, ...extra }
}

export interface TestApp {
  app: FastifyInstance
  db: Db
  clock: TestClock
  logs: string[]
  close: () => Promise<void>
}

export async function createTestApp (
  dialect: Dialect,
  options: { fakes?: Fakes; env?: Record<string, string>; build?: Partial<BuildAppOptions>; sqliteFile?: boolean; via?: (directUrl: string) => string } = {}
): Promise<TestApp> {
  const database = await createTestDatabase(dialect, { sqliteFile: options.sqliteFile, via: options.via })
  const clock = new TestClock()
  const logs: string[] = []
  const config = loadConfig(envFor(options.fakes ?? {}, options.env), process.cwd())
  const app = await buildApp({
    config,
    database: database.handle,
    clock: clock.now,
    maintenance: false,
    // the server's own logger options (redaction, redacted query values, the redacting stream), into t.logs
    logger: loggerOptions('info', { write: (line: string) => { logs.push(line) } }),
    // no DNS here: host names resolve as test/server/support/resolver.ts says
    resolveHost: testResolveHost,
    ...options.build
  })
  await app.ready()
  return {
    app,
    db: database.handle.db,
    clock,
    logs,
    close: async () => {
      await app.close()
      await database.drop()
    }
  }
}

let ipCounter = 0
/** A client IP of its own, so rate limits of one test do not leak into another. */
export function nextIp (): string {
  ipCounter++
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export interface CallOptions {
  token?: string
  lang?: string
  ip?: string
  query?: Record<string, string>
  headers?: Record<string, string>
}

export interface Envelope<T = any> { code: number; message: string; data: T }

export interface CallResult<T = any> { status: number; body: Envelope<T>; res: LightMyRequestResponse }

export async function call<T = any> (app: FastifyInstance, method: 'GET' | 'POST', path: string, payload?: unknown, o: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = { ...o.headers }
  if (o.token) headers.authorization = `Bearer ${o.token}`
  if (o.lang) headers['accept-language'] = o.lang
  const res = await app.inject({
    method,
    url: PREFIX + path,
    query: o.query,
    headers,
    remoteAddress: o.ip ?? '127.0.0.1',
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> })
  })
  let body: Envelope<T>
  try {
    body = res.json()
  } catch {
    body = { code: -1, message: res.body, data: null as T }
  }
  return { status: res.statusCode, body, res }
}

export const get = <T = any>(app: FastifyInstance, path: string, o: CallOptions = {}) => call<T>(app, 'GET', path, undefined, o)
export const post = <T = any>(app: FastifyInstance, path: string, payload?: unknown, o: CallOptions = {}) => call<T>(app, 'POST', path, payload, o)

/**
 * One argon2 hash per password per test file: makeUser makes hundreds of users (a hash is about 25 ms of
 * a processor), and none of them is there to test the hashing (register.test.ts and the password tests
 * hash through the routes). Each user still has an argon2id hash its password verifies against.
 */
const hashes = new Map<string, Promise<string>>()
const hashOnce = (password: string): Promise<string> => {
  let made = hashes.get(password)
  if (!made) hashes.set(password, made = hashPassword(password))
  return made
}

let userCounter = 0
/** A user with a password, straight into the database. */
export async function makeUser (db: Db, clock: TestClock, fields: Partial<{ user_name: string; phone: string; email: string; password: string; role: 'shopper' | 'operator' }> = {}): Promise<UserRow & { password: string }> {
  userCounter++
  const password = fields.password ?? 'secret-pw'
  const user = await insertUser(db, clock.now, {
    user_name: fields.user_name ?? `user${userCounter}_${Math.random().toString(36).slice(2, 8)}`,
    phone: fields.phone ?? null,
    email: fields.email ?? null,
    nickname: 'Tester',
    role: fields.role ?? 'shopper',
    password_hash: await hashOnce(password)
  })
  return { ...user, password }
}

/** Logs a user in by password and answers the token. */
export async function loginToken (app: FastifyInstance, userName: string, password: string): Promise<string> {
  const r = await post(app, '/login/passwd', { user_name: userName, password }, { ip: nextIp() })
  if (r.body.code !== 200) throw new Error(`login failed: ${JSON.stringify(r.body)}`)
  return r.body.data.token
}
