/**
 * A small client of S3-compatible object storage (AWS S3, MinIO, Alibaba OSS, Tencent COS), for the
 * media store (domain/mediaStore.ts): PutObject, GetObject and HeadObject, each one signed request.
 *
 * Requests are signed with AWS Signature Version 4 in the Authorization header, as
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html describes: a canonical
 * request (method, URI-encoded path, sorted query, the signed headers lower-cased and trimmed, the
 * payload's SHA-256), a string to sign over its hash with the credential scope
 * <yyyymmdd>/<region>/s3/aws4_request, and a signing key derived by HMAC-SHA256 from "AWS4" + secret
 * through date, region, service and "aws4_request". The payload is always signed (x-amz-content-sha256 is
 * its SHA-256, never UNSIGNED-PAYLOAD), so S3 refuses a body changed on the way.
 *
 * Operations:
 * - PutObject https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html (PUT /<key>, with
 *   Content-Type and Content-Length)
 * - GetObject https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html (404 NoSuchKey: none)
 * - HeadObject https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html (404: none)
 *
 * A transient failure is tried again, as AWS's SDKs do in their standard retry mode
 * (https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html: three attempts in all,
 * for connection errors and for 500, 502, 503 and 504, with a growing pause): every operation here is
 * idempotent (a PUT of the same key carries the same bytes, a key being the bytes' SHA-256). A dropped
 * keep-alive connection, which a loaded machine meets now and then, is such a failure. A timeout is
 * not tried again: the caller has waited long enough.
 *
 * Anything that keeps an answer from arriving (network, timeout, a refusal such as a wrong key, 5xx)
 * is a ProviderUnavailableError naming the provider, the operation and S3's error code: never the
 * keys, never the signature.
 */
import { createHash, createHmac } from 'node:crypto'
import type { S3Settings } from '../config'
import { ProviderUnavailableError } from './errors'

export type { S3Settings }

/** How long one request may take, body included. */
export const S3_TIMEOUT_MS = 15_000
/** Attempts per operation (the first included), and the pause before each retry. */
export const S3_ATTEMPTS = 3
const RETRY_PAUSE_MS = [100, 400]
const TRANSIENT_STATUS = new Set([500, 502, 503, 504])
const pause = (ms: number) => new Promise(resolve => setTimeout(resolve, ms))
/** The largest object read back (media are at most 8 MB; anything far larger is not one of ours). */
export const S3_MAX_OBJECT_BYTES = 32 * 1024 * 1024
/** The provider name in errors (and in the 502 a client sees). */
const PROVIDER = 'media'

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex')
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest()

/**
 * URI-encodes as SigV4 asks: every byte except the unreserved characters A-Z a-z 0-9 - . _ ~ as %XX
 * (upper-case hex); '/' kept when `keepSlash` (the object key in a path).
 */
export function uriEncode (text: string, keepSlash: boolean): string {
  let out = ''
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte)
    if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) out += c
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

/** The signing key: HMAC chain over date, region, service and "aws4_request". */
export function signingKey (secret: string, date: string, region: string, service = 's3'): Buffer {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request')
}

export interface SignInput {
  method: string
  /** The path as sent (already URI-encoded), e.g. /bucket/media/ab.png. */
  path: string
  /** Query parameters (not encoded). */
  query?: Record<string, string>
  /** Every header to sign, host among them (names in any case). */
  headers: Record<string, string>
  /** The payload's SHA-256 in hex (x-amz-content-sha256). */
  payloadHash: string
  /** yyyymmddThhmmssZ. */
  amzDate: string
  region: string
  accessKeyId: string
  secretAccessKey: string
}

/** The Authorization header of a request (its headers must already hold x-amz-date and x-amz-content-sha256). */
export function authorization (input: SignInput): string {
  const names = Object.keys(input.headers).map(n => n.toLowerCase()).sort()
  const value = (name: string) => {
    const key = Object.keys(input.headers).find(k => k.toLowerCase() === name)!
    return input.headers[key].trim().replace(/\s+/g, ' ')
  }
  const query = Object.entries(input.query ?? {})
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`).join('&')
  const canonical = [
    input.method,
    input.path,
    query,
    names.map(n => `${n}:${value(n)}\n`).join(''),
    names.join(';'),
    input.payloadHash
  ].join('\n')
  const date = input.amzDate.slice(0, 8)
  const scope = `${date}/${input.region}/s3/aws4_request`
  const toSign = ['AWS4-HMAC-SHA256', input.amzDate, scope, sha256Hex(canonical)].join('\n')
  const signature = createHmac('sha256', signingKey(input.secretAccessKey, date, input.region)).update(toSign, 'utf8').digest('hex')
  return `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope},SignedHeaders=${names.join(';')},Signature=${signature}`
}

/** 2013-05-24T00:00:00.000Z -> 20130524T000000Z. */
export const amzDate = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')

/** S3's error code from an XML error body (<Code>AccessDenied</Code>), or the HTTP status. */
function errorCode (status: number, body: string): string {
  const code = /<Code>([A-Za-z0-9.]{1,64})<\/Code>/.exec(body)?.[1]
  return code ? `${status} ${code}` : `HTTP ${status}`
}

/** A failure worth another attempt, carrying the error to throw when none is left. */
class TransientFailure extends Error {
  constructor (readonly failure: ProviderUnavailableError) { super(failure.message) }
}

export interface S3Object { bytes: Buffer; contentType: string | null }

export class S3Client {
  private readonly origin: URL

  constructor (private readonly settings: S3Settings, private readonly now: () => number = Date.now, private readonly timeoutMs = S3_TIMEOUT_MS) {
    this.origin = new URL(settings.endpoint)
  }

  /** The URL of an object, path-style or virtual-hosted. */
  urlOf (key: string): URL {
    const path = uriEncode(key, true)
    if (this.settings.forcePathStyle) return new URL(`${this.origin.origin}/${uriEncode(this.settings.bucket, false)}/${path}`)
    return new URL(`${this.origin.protocol}//${this.settings.bucket}.${this.origin.host}/${path}`)
  }

  private async send (operation: string, method: 'PUT' | 'GET' | 'HEAD' | 'DELETE', key: string, body?: Buffer, contentType?: string): Promise<Response | null> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.sendOnce(operation, method, key, body, contentType)
      } catch (err) {
        if (!(err instanceof TransientFailure)) throw err
        if (attempt >= S3_ATTEMPTS) throw err.failure
        await pause(RETRY_PAUSE_MS[attempt - 1] ?? 400)
      }
    }
  }

  private async sendOnce (operation: string, method: 'PUT' | 'GET' | 'HEAD' | 'DELETE', key: string, body?: Buffer, contentType?: string): Promise<Response | null> {
    const url = this.urlOf(key)
    const payload = body ?? Buffer.alloc(0)
    const payloadHash = sha256Hex(payload)
    const headers: Record<string, string> = {
      host: url.host,
      'x-amz-content-sha256': payloadHash,
      'x-amz-date': amzDate(this.now())
    }
    if (contentType) headers['content-type'] = contentType
    headers.authorization = authorization({
      method, path: url.pathname, headers, payloadHash, amzDate: headers['x-amz-date'],
      region: this.settings.region, accessKeyId: this.settings.accessKeyId, secretAccessKey: this.settings.secretAccessKey
    })
    // fetch sets Host from the URL itself (the same value that was signed)
    delete headers.host
    let res: Response
    try {
      res = await fetch(url, {
        // a redirect (another region's endpoint) is not followed: it would carry this signature elsewhere
        method, headers, redirect: 'manual', signal: AbortSignal.timeout(this.timeoutMs),
        ...(body ? { body: new Uint8Array(body.buffer, body.byteOffset, body.length) } : {})
      })
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError'
      const failure = new ProviderUnavailableError(PROVIDER, `${operation} ${key}: ${timedOut ? `no answer within ${this.timeoutMs} ms` : 'could not be reached'}`, { cause: err })
      throw timedOut ? failure : new TransientFailure(failure)
    }
    if (res.status === 404 && method !== 'PUT') {
      await res.arrayBuffer().catch(() => undefined)
      return null
    }
    if (!res.ok) {
      const text = method === 'HEAD' ? '' : await res.text().catch(() => '')
      const failure = new ProviderUnavailableError(PROVIDER, `${operation} ${key}: ${errorCode(res.status, text)}`)
      throw TRANSIENT_STATUS.has(res.status) ? new TransientFailure(failure) : failure
    }
    return res
  }

  /** PutObject: the bytes under `key` (the same key again replaces them). */
  async putObject (key: string, bytes: Buffer, contentType: string): Promise<void> {
    const res = await this.send('PutObject', 'PUT', key, bytes, contentType)
    await res!.arrayBuffer().catch(() => undefined)
  }

  /** GetObject: the object's bytes, or null when there is none. */
  async getObject (key: string): Promise<S3Object | null> {
    const res = await this.send('GetObject', 'GET', key)
    if (!res) return null
    if (Number(res.headers.get('content-length') ?? 0) > S3_MAX_OBJECT_BYTES) {
      await res.body?.cancel().catch(() => undefined)
      throw new ProviderUnavailableError(PROVIDER, `GetObject ${key}: larger than ${S3_MAX_OBJECT_BYTES} bytes`)
    }
    try {
      return { bytes: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type') }
    } catch (err) {
      throw new ProviderUnavailableError(PROVIDER, `GetObject ${key}: the body did not arrive whole`, { cause: err })
    }
  }

  /**
   * DeleteObject: the object is gone (S3 answers 204 whether or not it was there; a 404 from a store
   * that says so is taken as gone too).
   * https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeleteObject.html
   */
  async deleteObject (key: string): Promise<void> {
    const res = await this.send('DeleteObject', 'DELETE', key)
    if (res) await res.arrayBuffer().catch(() => undefined)
  }

  /** HeadObject: the object's size and type, or null when there is none. */
  async headObject (key: string): Promise<{ size: number; contentType: string | null } | null> {
    const res = await this.send('HeadObject', 'HEAD', key)
    if (!res) return null
    return { size: Number(res.headers.get('content-length') ?? 0), contentType: res.headers.get('content-type') }
  }
}
