/**
 * Local stand-ins for the third parties, each on 127.0.0.1 on a free port: an SMTP server
 * (smtp-server), an SMS HTTP endpoint and a WeChat API that speaks jscode2session, oauth2
 * access_token, userinfo, cgi-bin/token and generate_urllink, including errcode answers.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { SMTPServer } from 'smtp-server'

// ---- SMTP ----------------------------------------------------------------------------------------

export interface ReceivedMail { to: string[]; from: string; subject: string; text: string; raw: string }

function decodeQuotedPrintable (s: string): string {
  const bytes: number[] = []
  const soft = s.replace(/=\r?\n/g, '')
  for (let i = 0; i < soft.length; i++) {
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16))
      i += 2
    } else {
      bytes.push(...Buffer.from(soft[i], 'utf8'))
    }
  }
  return Buffer.from(bytes).toString('utf8')
}

function decodeMimeWords (s: string): string {
  return s.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')))
}

/** Enough MIME for nodemailer's single-part text mails. */
export function parseMail (raw: string, to: string[], from: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n')
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ')
  const body = raw.slice(split + 4)
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head)?.[1] ?? ''
  const encoding = header('Content-Transfer-Encoding').toLowerCase()
  const text = encoding === 'base64'
    ? Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
    : encoding === 'quoted-printable' ? decodeQuotedPrintable(body) : body
  return { to, from, subject: decodeMimeWords(header('Subject')), text, raw }
}

export interface FakeSmtp {
  url: string
  mails: ReceivedMail[]
  /** The 6-digit code of the last mail to `to`. */
  lastCode (to: string): string
  close (): Promise<void>
}

export async function startSmtp (): Promise<FakeSmtp> {
  const mails: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData (stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map(r => r.address)
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : ''
        mails.push(parseMail(Buffer.concat(chunks).toString('utf8'), to, from))
        callback()
      })
    }
  })
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    lastCode (to) {
      const mail = [...mails].reverse().find(m => m.to.includes(to))
      const code = mail && /\b(\d{6})\b/.exec(mail.text)?.[1]
      if (!code) throw new Error(`no code mailed to ${to}`)
      return code
    },
    close: () => new Promise<void>(resolve => server.close(() => resolve()))
  }
}

// ---- HTTP helpers ---------------------------------------------------------------------------------

async function listen (handler: http.RequestListener): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer(handler)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>(resolve => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  }
}

function readBody (req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

function json (res: http.ServerResponse, status: number, body: unknown, contentType = 'application/json') {
  res.writeHead(status, { 'content-type': contentType })
  res.end(JSON.stringify(body))
}

// ---- SMS ------------------------------------------------------------------------------------------

export interface SentSms { phone: string; text: string; authorization?: string }

export interface FakeSms {
  url: string
  messages: SentSms[]
  /** Answer the next requests with this HTTP status (e.g. 500). */
  failWith: number | null
  lastCode (phone: string): string
  close (): Promise<void>
}

export async function startSms (): Promise<FakeSms> {
  const fake = { messages: [] as SentSms[], failWith: null as number | null }
  const server = await listen(async (req, res) => {
    const body = await readBody(req)
    if (req.method !== 'POST' || !(req.headers['content-type'] ?? '').includes('application/json')) return json(res, 400, { error: 'bad request' })
    if (fake.failWith) return json(res, fake.failWith, { error: 'provider down' })
    const { phone, text } = JSON.parse(body) as { phone: string; text: string }
    fake.messages.push({ phone, text, authorization: req.headers.authorization })
    json(res, 200, { ok: true })
  })
  return Object.assign(fake, {
    url: `${server.url}/send`,
    close: server.close,
    lastCode (phone: string) {
      const sms = [...fake.messages].reverse().find(m => m.phone === phone)
      const code = sms && /\b(\d{6})\b/.exec(sms.text)?.[1]
      if (!code) throw new Error(`no code sent to ${phone}`)
      return code
    }
  })
}

// ---- WeChat -----------------------------------------------------------------------------------------

export const WX = {
  appId: 'wx-mini-appid',
  secret: 'wx-mini-secret',
  oauthAppId: 'wx-oauth-appid',
  oauthSecret: 'wx-oauth-secret'
}

export interface WeChatUser { openid: string; unionid?: string; nickname?: string; headimgurl?: string }

export interface FakeWeChat {
  url: string
  /** js_code -> mini-program user; a code works once (40163 afterwards), unknown codes are 40029. */
  miniCodes: Map<string, WeChatUser>
  /** OAuth code -> web user and scope. */
  oauthCodes: Map<string, WeChatUser & { scope: 'snsapi_base' | 'snsapi_userinfo' }>
  calls: string[]
  tokenRequests: number
  /** Make the next generate_urllink answer 40001 (stale token) once. */
  staleTokenOnce: boolean
  close (): Promise<void>
}

export async function startWeChat (): Promise<FakeWeChat> {
  const used = new Set<string>()
  const tokens = new Map<string, WeChatUser & { scope: string }>()
  const fake = {
    miniCodes: new Map<string, WeChatUser>(),
    oauthCodes: new Map<string, WeChatUser & { scope: 'snsapi_base' | 'snsapi_userinfo' }>(),
    calls: [] as string[],
    tokenRequests: 0,
    staleTokenOnce: false
  }
  let accessToken = 'access-token-0'
  const server = await listen(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x')
    const q = url.searchParams
    fake.calls.push(url.pathname)
    const body = req.method === 'POST' ? await readBody(req) : ''
    // WeChat answers errors as HTTP 200 with errcode (and often text/plain)
    const err = (errcode: number, errmsg: string) => json(res, 200, { errcode, errmsg }, 'text/plain')
    switch (url.pathname) {
      case '/sns/jscode2session': {
        if (q.get('appid') !== WX.appId || q.get('secret') !== WX.secret) return err(40013, 'invalid appid')
        if (q.get('grant_type') !== 'authorization_code') return err(40002, 'invalid grant_type')
        const code = q.get('js_code') ?? ''
        if (used.has(code)) return err(40163, 'code been used')
        const user = fake.miniCodes.get(code)
        if (!user) return err(40029, 'invalid code')
        used.add(code)
        return json(res, 200, { openid: user.openid, session_key: 'sk-' + user.openid, ...(user.unionid ? { unionid: user.unionid } : {}) }, 'text/plain')
      }
      case '/sns/oauth2/access_token': {
        if (q.get('appid') !== WX.oauthAppId || q.get('secret') !== WX.oauthSecret) return err(40013, 'invalid appid')
        const code = q.get('code') ?? ''
        if (used.has(code)) return err(40163, 'code been used')
        const user = fake.oauthCodes.get(code)
        if (!user) return err(40029, 'invalid code')
        used.add(code)
        const token = `oauth-${code}`
        tokens.set(token, user)
        return json(res, 200, {
          access_token: token, expires_in: 7200, refresh_token: 'r', openid: user.openid, scope: user.scope,
          ...(user.unionid ? { unionid: user.unionid } : {})
        })
      }
      case '/sns/userinfo': {
        const user = tokens.get(q.get('access_token') ?? '')
        if (!user || user.openid !== q.get('openid')) return err(40001, 'invalid credential, access_token is invalid or not latest')
        if (user.scope !== 'snsapi_userinfo') return err(48001, 'api unauthorized')
        return json(res, 200, {
          openid: user.openid, nickname: user.nickname ?? '', sex: 0, province: '', city: '', country: '',
          headimgurl: user.headimgurl ?? '', privilege: [], ...(user.unionid ? { unionid: user.unionid } : {})
        })
      }
      case '/cgi-bin/token': {
        if (q.get('appid') !== WX.appId || q.get('secret') !== WX.secret) return err(40013, 'invalid appid')
        fake.tokenRequests++
        accessToken = `access-token-${fake.tokenRequests}`
        return json(res, 200, { access_token: accessToken, expires_in: 7200 })
      }
      case '/wxa/generate_urllink': {
        if (fake.staleTokenOnce) {
          fake.staleTokenOnce = false
          return err(40001, 'invalid credential')
        }
        if (q.get('access_token') !== accessToken) return err(40001, 'invalid credential')
        const b = JSON.parse(body || '{}') as { path?: string; query?: string; expire_interval?: number }
        if (b.path === 'pages/missing') return err(40165, 'invalid weapp pagepath')
        return json(res, 200, { errcode: 0, errmsg: 'ok', url_link: `https://wxaurl.cn/fake?path=${encodeURIComponent(b.path ?? '')}&query=${encodeURIComponent(b.query ?? '')}&days=${b.expire_interval}` })
      }
      default:
        return json(res, 404, { errcode: -1, errmsg: 'no such api' })
    }
  })
  return Object.assign(fake, { url: server.url, close: server.close })
}
