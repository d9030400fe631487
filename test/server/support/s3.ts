/**
 * A local S3 for the media store's tests: s3rver 3.7.1 keeping objects in a temporary directory, behind
 * a strict front that checks every request's Signature Version 4 as S3 does.
 *
 * Why the front: s3rver checks only V2 signatures. For a V4 Authorization header it looks up the
 * access key id and accepts the request whatever the signature (lib/middleware/authentication.js:
 * "Signature version 4 calculation is unimplemented"), it does not compare x-amz-content-sha256 with
 * the body ("skip payload verification"), and a request with no Authorization at all is served. S3
 * refuses all three. So the front, written from
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html and S3's error codes
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html), answers before s3rver does:
 * - no Authorization (the bucket is private): 403 AccessDenied
 * - an unknown access key id: 403 InvalidAccessKeyId
 * - a credential scope of another region or service: 400 AuthorizationHeaderMalformed
 * - x-amz-date missing, malformed or unlike the scope's date: 403 AccessDenied / 400 AuthorizationHeaderMalformed;
 *   more than 15 minutes from the clock: 403 RequestTimeTooSkewed
 * - host, x-amz-date, x-amz-content-sha256 or another x-amz-* header not signed: 403 AccessDenied
 * - x-amz-content-sha256 missing: 400 InvalidRequest; not the body's hash: 400 XAmzContentSHA256Mismatch
 * - a PUT without Content-Length: 411 MissingContentLength
 * - any other signature than the one computed with the account's secret: 403 SignatureDoesNotMatch
 * and passes the rest, unchanged, to s3rver. This verifier is its own code, apart from the server's
 * signer, and is checked against AWS's published example (media-s3.test.ts).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import S3rver from 's3rver'

/** s3rver's built-in account (lib/models/account.js). */
export const S3RVER_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
export const FAKE_BUCKET = 'pickbox-media'
export const FAKE_REGION = 'us-east-1'

export interface SignedRequest {
  method: string
  /** The request target as sent: path and query, percent-encoded. */
  target: string
  /** Header names lower-case (as node:http gives them). */
  headers: Record<string, string | string[] | undefined>
  body: Buffer
}

export interface Refusal { status: number; code: string; message: string }

const UNRESERVED = /[A-Za-z0-9\-._~]/
/** S3's UriEncode: every byte but A-Z a-z 0-9 - . _ ~ as %XX, '/' kept in paths. */
function encode (text: string, slash: boolean): string {
  return [...Buffer.from(text, 'utf8')].map(b => {
    const c = String.fromCharCode(b)
    return UNRESERVED.test(c) || (slash && c === '/') ? c : `%${b.toString(16).toUpperCase().padStart(2, '0')}`
  }).join('')
}

const hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex')
const mac = (key: Buffer | string, text: string) => createHmac('sha256', key).update(text, 'utf8').digest()
const header = (h: SignedRequest['headers'], name: string): string | undefined => {
  const v = h[name]
  return Array.isArray(v) ? v.join(',') : v
}

/** 20130524T000000Z -> ms, or NaN. */
function parseAmzDate (text: string): number {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text)
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : Number.NaN
}

/**
 * Null when S3 would take the request's authentication, else S3's refusal. `keys`: access key id to
 * secret; `now`: the server's clock.
 */
export function verifySigV4 (req: SignedRequest, keys: Map<string, string>, region: string, now: number): Refusal | null {
  const auth = header(req.headers, 'authorization')
  if (!auth) return { status: 403, code: 'AccessDenied', message: 'Access Denied' }
  const m = /^AWS4-HMAC-SHA256 (.*)$/.exec(auth)
  if (!m) return { status: 400, code: 'InvalidArgument', message: 'Unsupported Authorization Type' }
  const parts = new Map(m[1].split(',').map(p => p.trim()).map(p => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as [string, string]))
  const credential = parts.get('Credential')
  const signedList = parts.get('SignedHeaders')
  const signature = parts.get('Signature')
  if (!credential || !signedList || !signature || parts.size !== 3) {
    return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'the authorization header requires three components: Credential, SignedHeaders, and Signature' }
  }
  const [keyId, date, scopeRegion, service, terminal, ...rest] = credential.split('/')
  if (rest.length || !terminal) return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'the Credential is mal-formed' }
  const secret = keys.get(keyId)
  if (secret === undefined) return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' }
  if (scopeRegion !== region) return { status: 400, code: 'AuthorizationHeaderMalformed', message: `the region '${scopeRegion}' is wrong; expecting '${region}'` }
  if (service !== 's3' || terminal !== 'aws4_request') return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'the Credential scope must end in s3/aws4_request' }
  const amzDate = header(req.headers, 'x-amz-date')
  const when = amzDate ? parseAmzDate(amzDate) : Number.NaN
  if (Number.isNaN(when)) return { status: 403, code: 'AccessDenied', message: 'AWS authentication requires a valid Date or x-amz-date header' }
  if (amzDate!.slice(0, 8) !== date) return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from HTTP' }
  if (Math.abs(now - when) > 15 * 60_000) return { status: 403, code: 'RequestTimeTooSkewed', message: 'The difference between the request time and the current time is too large.' }
  const payloadHash = header(req.headers, 'x-amz-content-sha256')
  if (!payloadHash) return { status: 400, code: 'InvalidRequest', message: 'Missing required header for this request: x-amz-content-sha256' }
  const signed = signedList.split(';')
  const mustSign = ['host', ...Object.keys(req.headers).filter(n => n.startsWith('x-amz-'))]
  if (mustSign.some(n => !signed.includes(n))) return { status: 403, code: 'AccessDenied', message: 'There were headers present in the request which were not signed' }
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== hex(req.body)) {
    return { status: 400, code: 'XAmzContentSHA256Mismatch', message: "The provided 'x-amz-content-sha256' header does not match what was computed." }
  }
  if (req.method === 'PUT' && header(req.headers, 'content-length') === undefined) return { status: 411, code: 'MissingContentLength', message: 'You must provide the Content-Length HTTP header.' }

  // the canonical request, rebuilt from what arrived
  const [rawPath, rawQuery = ''] = req.target.split('?', 2)
  const canonicalUri = rawPath.split('/').map(s => encode(decodeURIComponent(s), false)).join('/')
  const canonicalQuery = rawQuery.split('&').filter(Boolean).map(p => {
    const [k, v = ''] = p.split('=', 2)
    return [encode(decodeURIComponent(k.replace(/\+/g, ' ')), false), encode(decodeURIComponent(v.replace(/\+/g, ' ')), false)]
  }).sort((a, b) => a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1).map(([k, v]) => `${k}=${v}`).join('&')
  const canonicalHeaders = [...signed].sort().map(n => `${n}:${(header(req.headers, n) ?? '').trim().replace(/ +/g, ' ')}\n`).join('')
  const canonical = [req.method, canonicalUri, canonicalQuery, canonicalHeaders, signedList, payloadHash].join('\n')
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, `${date}/${scopeRegion}/${service}/${terminal}`, hex(canonical)].join('\n')
  const key = mac(mac(mac(mac(`AWS4${secret}`, date), scopeRegion), service), terminal)
  const expected = Buffer.from(createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex'))
  const given = Buffer.from(signature)
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' }
  }
  return null
}

export interface FakeS3 {
  /** The strict front: what the server is configured with (S3_ENDPOINT). */
  url: string
  /** s3rver itself, behind the front. */
  directUrl: string
  /** Every request the front answered: method, target, status (and S3's code when refused). */
  requests: Array<{ method: string; target: string; status: number; code?: string }>
  /** An object read straight from s3rver's store, or null. */
  read: (key: string) => Promise<{ bytes: Buffer; contentType: string } | null>
  /** The keys of the bucket under a prefix. */
  keys: (prefix?: string) => Promise<string[]>
  /** Stops the front and s3rver (S3 is down); the objects stay on disk. */
  stop: () => Promise<void>
  /** Stops them and removes the directory. */
  close: () => Promise<void>
}

async function listen (server: http.Server): Promise<number> {
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

/** Starts s3rver (bucket pickbox-media) on a free port of 127.0.0.1 in a temporary directory, and its strict front. */
export async function startFakeS3 (): Promise<FakeS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'fake-s3-'))
  // s3rver asks for a port: take a free one from the system first
  const probe = http.createServer()
  const port = await listen(probe)
  await new Promise(resolve => probe.close(resolve))
  const s3rver = new S3rver({ port, address: '127.0.0.1', directory, silent: true, configureBuckets: [{ name: FAKE_BUCKET }] })
  await s3rver.run()
  const directUrl = `http://127.0.0.1:${port}`
  const keys = new Map([[S3RVER_KEY.accessKeyId, S3RVER_KEY.secretAccessKey]])
  const requests: FakeS3['requests'] = []

  const front = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      const body = Buffer.concat(chunks)
      const target = req.url ?? '/'
      const refusal = verifySigV4({ method: req.method ?? 'GET', target, headers: req.headers, body }, keys, FAKE_REGION, Date.now())
      if (refusal) {
        requests.push({ method: req.method ?? '', target, status: refusal.status, code: refusal.code })
        res.writeHead(refusal.status, { 'content-type': 'application/xml' })
        res.end(req.method === 'HEAD' ? undefined : `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`)
        return
      }
      const inner = http.request(`${directUrl}${target}`, { method: req.method, headers: req.headers }, answer => {
        requests.push({ method: req.method ?? '', target, status: answer.statusCode ?? 0 })
        res.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(res)
      })
      inner.on('error', () => { res.writeHead(502); res.end() })
      inner.end(body)
    })
  })
  const frontPort = await listen(front)
  let running = true
  const stop = async () => {
    if (!running) return
    running = false
    front.closeAllConnections()
    await new Promise(resolve => front.close(resolve))
    s3rver.httpServer?.closeAllConnections()
    await s3rver.close()
  }
  return {
    url: `http://127.0.0.1:${frontPort}`,
    directUrl,
    requests,
    read: async (key) => {
      const object = await s3rver.store.getObject(FAKE_BUCKET, key)
      if (!object) return null
      const chunks: Buffer[] = []
      for await (const c of object.content) chunks.push(c as Buffer)
      return { bytes: Buffer.concat(chunks), contentType: String(object.metadata['content-type']) }
    },
    keys: async (prefix = '') => (await s3rver.store.listObjects(FAKE_BUCKET, { prefix })).objects.map((o: { key: string }) => o.key).sort(),
    stop,
    close: async () => {
      await stop()
      fs.rmSync(directory, { recursive: true, force: true })
    }
  }
}
