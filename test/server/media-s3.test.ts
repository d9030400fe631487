/**
 * Media in S3-compatible object storage (MEDIA_STORE=s3), on both databases, against s3rver behind a
 * strict Signature Version 4 front (support/s3.ts): the front is checked against AWS's published
 * example and shown to refuse what S3 refuses (a wrong secret, no signature, a body unlike its hash,
 * another region) where s3rver alone takes it. Then: an operator's upload lands in the bucket and not in
 * the row's bytes; /media/u/ answers the same bytes and headers as the database mode; ?w= scales what
 * it fetched; speech is kept through the same adapter; the same image twice is one object and one row;
 * MEDIA_PUBLIC_BASE answers originals with a 302 to the CDN; and with the storage down uploads and
 * reads are the 502 of provider "media", never a 500, naming no key.
 */
import { createHash } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import sharp from 'sharp'
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { FAKE_BUCKET, FAKE_REGION, S3RVER_KEY, startFakeS3, verifySigV4, type FakeS3 } from './support/s3'
import { makePng, multipartBody } from '../support/png'
import { ConfigError, loadConfig } from '../../server/src/config'
import { authorization, S3_ATTEMPTS, S3Client } from '../../server/src/providers/s3'
import { ProviderUnavailableError } from '../../server/src/providers/errors'
import { buy, currentCaseId, makeSeries, makeShopper, topUp, type Shopper } from './support/shop'
import { hashPassword } from '../../server/src/security/passwords'
import { eraseMediaObjects, S3MediaStore } from '../../server/src/domain/media/mediaStore'

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')

/** AWS's example of a signed GET (sig-v4-header-based-auth.html, "Example: GET Object"). */
const AWS_EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  emptyHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  authorization: 'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41'
}

const s3Env = (fake: FakeS3, extra: Record<string, string> = {}) => ({
  MEDIA_STORE: 's3', S3_ENDPOINT: fake.url, S3_REGION: FAKE_REGION, S3_BUCKET: FAKE_BUCKET,
  S3_ACCESS_KEY_ID: S3RVER_KEY.accessKeyId, S3_SECRET_ACCESS_KEY: S3RVER_KEY.secretAccessKey, ...extra
})

/** The settings the server derives from s3Env, for a client of the tests' own. */
const s3Settings = (fake: FakeS3) => ({
  endpoint: fake.url, region: FAKE_REGION, bucket: FAKE_BUCKET, accessKeyId: S3RVER_KEY.accessKeyId, secretAccessKey: S3RVER_KEY.secretAccessKey, forcePathStyle: true
})

describe('the signature', () => {
  test("the server's signer gives AWS's published signatures (GET and PUT examples)", () => {
    const common = { region: 'us-east-1', accessKeyId: AWS_EXAMPLE.accessKeyId, secretAccessKey: AWS_EXAMPLE.secretAccessKey, amzDate: '20130524T000000Z' }
    expect(authorization({
      ...common, method: 'GET', path: '/test.txt', payloadHash: AWS_EXAMPLE.emptyHash,
      headers: { Host: 'examplebucket.s3.amazonaws.com', Range: 'bytes=0-9', 'x-amz-content-sha256': AWS_EXAMPLE.emptyHash, 'x-amz-date': '20130524T000000Z' }
    })).toBe(AWS_EXAMPLE.authorization)
    const body = sha256(Buffer.from('Welcome to Amazon S3.'))
    expect(authorization({
      ...common, method: 'PUT', path: '/test%24file.text', payloadHash: body,
      headers: { Host: 'examplebucket.s3.amazonaws.com', Date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY', 'x-amz-content-sha256': body, 'x-amz-date': '20130524T000000Z' }
    })).toMatch(/,Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd$/)
  })

  test("the fake's verifier takes AWS's example and refuses it changed in any signed part", () => {
    const at = Date.UTC(2013, 4, 24, 0, 5)
    const keys = new Map([[AWS_EXAMPLE.accessKeyId, AWS_EXAMPLE.secretAccessKey]])
    const request = (over: Record<string, string> = {}, target = '/test.txt') => ({
      method: 'GET', target, body: Buffer.alloc(0),
      headers: { host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9', 'x-amz-content-sha256': AWS_EXAMPLE.emptyHash, 'x-amz-date': '20130524T000000Z', authorization: AWS_EXAMPLE.authorization, ...over }
    })
    expect(verifySigV4(request(), keys, 'us-east-1', at)).toBeNull()
    expect(verifySigV4(request(), new Map([[AWS_EXAMPLE.accessKeyId, 'another secret']]), 'us-east-1', at)?.code).toBe('SignatureDoesNotMatch')
    expect(verifySigV4(request({ range: 'bytes=0-99' }), keys, 'us-east-1', at)?.code).toBe('SignatureDoesNotMatch')
    expect(verifySigV4(request({}, '/other.txt'), keys, 'us-east-1', at)?.code).toBe('SignatureDoesNotMatch')
    expect(verifySigV4(request({ 'x-amz-meta-extra': 'unsigned' }), keys, 'us-east-1', at)?.code).toBe('AccessDenied')
    expect(verifySigV4(request(), keys, 'eu-west-1', at)?.code).toBe('AuthorizationHeaderMalformed')
    expect(verifySigV4(request(), keys, 'us-east-1', Date.UTC(2013, 4, 24, 1))?.code).toBe('RequestTimeTooSkewed')
    expect(verifySigV4({ ...request(), body: Buffer.from('x') }, keys, 'us-east-1', at)?.code).toBe('XAmzContentSHA256Mismatch')
    expect(verifySigV4(request({ authorization: '' }), keys, 'us-east-1', at)?.code).toBe('AccessDenied')
  })
})

describe('the fake refuses what S3 refuses', () => {
  let fake: FakeS3
  beforeAll(async () => { fake = await startFakeS3() })
  afterAll(async () => { await fake?.close() })
  const client = (over: Partial<{ endpoint: string; secretAccessKey: string; region: string }> = {}) => new S3Client({
    endpoint: fake.url, region: FAKE_REGION, bucket: FAKE_BUCKET, accessKeyId: S3RVER_KEY.accessKeyId, secretAccessKey: S3RVER_KEY.secretAccessKey, forcePathStyle: true, ...over
  })

  test('the right key writes, reads and heads; a missing object is null', async () => {
    const bytes = Buffer.from('hello bucket')
    await client().putObject('media/check.txt', bytes, 'text/plain')
    expect(await client().getObject('media/check.txt')).toEqual({ bytes, contentType: 'text/plain' })
    expect(await client().headObject('media/check.txt')).toEqual({ size: bytes.length, contentType: 'text/plain' })
    expect(await client().getObject('media/none.txt')).toBeNull()
    expect(await client().headObject('media/none.txt')).toBeNull()
    expect((await fake.read('media/check.txt'))?.bytes).toEqual(bytes)
  })

  test('a wrong secret is refused by the front (as by S3), though s3rver alone takes it', async () => {
    const wrong = client({ secretAccessKey: 'not-the-secret' })
    await expect(wrong.putObject('media/forged.txt', Buffer.from('forged'), 'text/plain')).rejects.toThrow(/PutObject media\/forged.txt: 403 SignatureDoesNotMatch/)
    await expect(wrong.getObject('media/check.txt')).rejects.toBeInstanceOf(ProviderUnavailableError)
    expect(await fake.read('media/forged.txt')).toBeNull()
    // what the front is for: s3rver 3.7.1 does not check V4 signatures at all
    await client({ endpoint: fake.directUrl, secretAccessKey: 'not-the-secret' }).putObject('media/forged.txt', Buffer.from('forged'), 'text/plain')
    expect((await fake.read('media/forged.txt'))?.bytes.toString()).toBe('forged')
  })

  test('no signature, a body unlike its hash, another region: refused by the front, taken by s3rver', async () => {
    const anonymous = await fetch(`${fake.url}/${FAKE_BUCKET}/media/check.txt`)
    expect([anonymous.status, await anonymous.text()]).toEqual([403, expect.stringContaining('<Code>AccessDenied</Code>')])
    expect((await fetch(`${fake.directUrl}/${FAKE_BUCKET}/media/check.txt`)).status).toBe(200)
    // signed for one body, another sent
    const url = `${fake.url}/${FAKE_BUCKET}/media/swapped.txt`
    const signedFor = Buffer.from('what was signed')
    const now = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
    const headers: Record<string, string> = { host: new URL(url).host, 'x-amz-content-sha256': sha256(signedFor), 'x-amz-date': now }
    headers.authorization = authorization({ method: 'PUT', path: new URL(url).pathname, headers, payloadHash: headers['x-amz-content-sha256'], amzDate: now, region: FAKE_REGION, ...S3RVER_KEY })
    delete headers.host
    const swapped = await fetch(url, { method: 'PUT', headers, body: 'something else' })
    expect([swapped.status, await swapped.text()]).toEqual([400, expect.stringContaining('XAmzContentSHA256Mismatch')])
    expect(await fake.read('media/swapped.txt')).toBeNull()
    await expect(client({ region: 'eu-west-1' }).getObject('media/check.txt')).rejects.toThrow(/400 AuthorizationHeaderMalformed/)
  })
})

describe('transient failures are tried again, as AWS\'s SDKs do; nothing else is', () => {
  // a server on 127.0.0.1 that answers as told, one behaviour per request in turn
  let server: http.Server
  let plan: Array<'drop' | number> = []
  const seen: string[] = []
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`)
      const step = plan.shift() ?? 200
      req.resume()
      if (step === 'drop') { req.socket.destroy(); return }
      res.writeHead(step, { 'content-type': step === 200 ? 'text/plain' : 'application/xml' })
      res.end(step === 200 ? 'kept' : `<Error><Code>${step === 403 ? 'AccessDenied' : 'InternalError'}</Code></Error>`)
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  })
  afterAll(async () => { await new Promise(resolve => server.close(resolve)) })
  const client = () => new S3Client({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, region: FAKE_REGION, bucket: FAKE_BUCKET, accessKeyId: 'AKID', secretAccessKey: 'secret', forcePathStyle: true
  })

  test('a dropped connection and a 503 are tried again (three attempts in all); a 403 and a 404 are not', async () => {
    plan = ['drop', 503]
    seen.length = 0
    expect((await client().getObject('media/a.txt'))?.bytes.toString()).toBe('kept')
    expect(seen).toEqual(Array(3).fill(`GET /${FAKE_BUCKET}/media/a.txt`))
    plan = [500, 'drop', 502, 200]
    seen.length = 0
    await expect(client().putObject('media/b.txt', Buffer.from('b'), 'text/plain')).rejects.toThrow(/PutObject media\/b.txt: 502 InternalError/)
    expect(seen).toHaveLength(S3_ATTEMPTS)
    plan = [403, 200]
    seen.length = 0
    await expect(client().getObject('media/c.txt')).rejects.toThrow(/403 AccessDenied/)
    expect(seen).toHaveLength(1)
    plan = [404, 200]
    seen.length = 0
    expect(await client().headObject('media/d.txt')).toBeNull()
    expect(seen).toHaveLength(1)
    plan = []
  })
})

describe('MEDIA_STORE and the S3_* settings are checked at start, naming the variable', () => {
  const base = { NODE_ENV: 'test', MEDIA_STORE: 's3', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'us-east-1', S3_BUCKET: 'pickbox-media', S3_ACCESS_KEY_ID: 'minio', S3_SECRET_ACCESS_KEY: 'minio-secret' }
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env, '/srv/shop')
      return []
    } catch (e) {
      if (!(e instanceof ConfigError)) throw e
      return e.problems
    }
  }

  test('the default is the database; s3 with its settings; path style unless on AWS itself', () => {
    expect(loadConfig({ NODE_ENV: 'test' }, '/srv').media).toEqual({ store: 'database' })
    expect(loadConfig(base, '/srv').media).toEqual({
      store: 's3', publicBase: null,
      s3: { endpoint: 'http://127.0.0.1:9000', region: 'us-east-1', bucket: 'pickbox-media', accessKeyId: 'minio', secretAccessKey: 'minio-secret', forcePathStyle: true }
    })
    const aws = loadConfig({ ...base, S3_ENDPOINT: 'https://s3.us-east-1.amazonaws.com/', MEDIA_PUBLIC_BASE: 'https://cdn.example.com/' }, '/srv').media
    expect(aws).toMatchObject({ publicBase: 'https://cdn.example.com', s3: { endpoint: 'https://s3.us-east-1.amazonaws.com', forcePathStyle: false } })
    expect(loadConfig({ ...base, S3_FORCE_PATH_STYLE: 'false' }, '/srv').media).toMatchObject({ s3: { forcePathStyle: false } })
  })

  test('each mistake is named', () => {
    expect(problems({ NODE_ENV: 'test', MEDIA_STORE: 'disk' })).toEqual([expect.stringMatching(/^MEDIA_STORE must be database or s3/)])
    expect(problems({ NODE_ENV: 'test', MEDIA_STORE: 's3', S3_BUCKET: 'b1b' })).toEqual(['MEDIA_STORE=s3 needs S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY'])
    expect(problems({ NODE_ENV: 'test', S3_BUCKET: 'pickbox-media' })).toEqual([expect.stringMatching(/^S3_BUCKET is set but MEDIA_STORE is not s3/)])
    expect(problems({ ...base, S3_ENDPOINT: 'ftp://example.com' })).toEqual([expect.stringMatching(/^S3_ENDPOINT must be/)])
    expect(problems({ ...base, S3_ENDPOINT: 'https://example.com/bucket' })).toEqual([expect.stringMatching(/^S3_ENDPOINT must be/)])
    expect(problems({ ...base, S3_REGION: 'US East' })).toEqual([expect.stringMatching(/^S3_REGION must be/)])
    expect(problems({ ...base, S3_BUCKET: 'Pickbox_Media' })).toEqual([expect.stringMatching(/^S3_BUCKET must be/)])
    expect(problems({ ...base, S3_SECRET_ACCESS_KEY: 'has space' })).toEqual([expect.stringMatching(/^S3_SECRET_ACCESS_KEY must be/)])
    expect(problems({ ...base, S3_FORCE_PATH_STYLE: 'maybe' })).toEqual([expect.stringMatching(/^S3_FORCE_PATH_STYLE must be/)])
    expect(problems({ ...base, MEDIA_PUBLIC_BASE: 'cdn.example.com' })).toEqual([expect.stringMatching(/^MEDIA_PUBLIC_BASE must be/)])
    // production: https only
    const prod = problems({ ...base, NODE_ENV: 'production', MEDIA_PUBLIC_BASE: 'http://cdn.example.com' })
    expect(prod.filter(p => /^(S3_ENDPOINT|MEDIA_PUBLIC_BASE) must be the .*https:\/\//.test(p))).toHaveLength(2)
    // the secret never appears in a problem
    expect(problems({ ...base, S3_REGION: '!' }).join(' ')).not.toContain('minio-secret')
  })
})

describe.each(testDialects())('media in object storage on %s', (dialect) => {
  let fake: FakeS3
  let t: TestApp
  let plain: TestApp
  let token: string
  let plainToken: string

  const operator = async (app: TestApp) => {
    const u = await makeUser(app.db, app.clock, { role: 'operator' })
    return loginToken(app.app, u.user_name!, u.password)
  }
  const upload = async (app: TestApp, tok: string, bytes: Buffer, type = 'image/png') => {
    const form = multipartBody('file', 'design.png', type, bytes)
    const res = await app.app.inject({
      method: 'POST', url: `${PREFIX}/api/operator/upload`, payload: form.body, remoteAddress: nextIp(),
      headers: { 'content-type': form.contentType, authorization: `Bearer ${tok}`, 'accept-language': 'en' }
    })
    return { status: res.statusCode, body: res.json() }
  }
  const row = (app: TestApp, sha: string) => app.db.selectFrom('media').selectAll().where('sha256', '=', sha).executeTakeFirst()
  const count = async (app: TestApp) => Number((await app.db.selectFrom('media').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)

  beforeAll(async () => {
    fake = await startFakeS3()
    t = await createTestApp(dialect, { env: s3Env(fake) })
    plain = await createTestApp(dialect)
    token = await operator(t)
    plainToken = await operator(plain)
  })
  afterAll(async () => {
    await t?.close()
    await plain?.close()
    await fake?.close()
  })

  test('an upload lands in the bucket and not in the row, and is served as the database mode serves it', async () => {
    const png = makePng(40, 30, [200, 60, 90])
    const r = await upload(t, token, png)
    const sha = sha256(png)
    expect(r.body).toMatchObject({ code: 200, data: { url: `/media/u/${sha}.png`, contentType: 'image/png', bytes: png.length, width: 40, height: 30 } })
    // the bucket holds the bytes, read straight from s3rver
    expect(await fake.read(`media/${sha}.png`)).toEqual({ bytes: png, contentType: 'image/png' })
    // the row holds the metadata and no bytes
    const kept = await row(t, sha)
    expect(kept).toMatchObject({ content_type: 'image/png', ext: 'png', size: png.length, width: 40, height: 30 })
    expect(Buffer.from(kept!.data).length).toBe(0)
    // the same picture kept in the database and served from there: the same answer
    expect((await upload(plain, plainToken, png)).body.data.url).toBe(r.body.data.url)
    expect(Buffer.from((await row(plain, sha))!.data)).toEqual(png)
    const fromBucket = await t.app.inject({ method: 'GET', url: r.body.data.url })
    const fromDatabase = await plain.app.inject({ method: 'GET', url: r.body.data.url })
    expect(fromBucket.statusCode).toBe(200)
    expect(fromBucket.rawPayload).toEqual(png)
    expect(fromBucket.rawPayload).toEqual(fromDatabase.rawPayload)
    for (const h of ['content-type', 'cache-control', 'content-security-policy', 'content-length']) expect([h, fromBucket.headers[h]]).toEqual([h, fromDatabase.headers[h]])
    expect(fromBucket.headers['cache-control']).toContain('immutable')
    // another extension, or a hash never kept: 404 without asking the bucket
    const asked = fake.requests.length
    expect((await t.app.inject({ method: 'GET', url: r.body.data.url.replace('.png', '.gif') })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: `/media/u/${'0'.repeat(64)}.png` })).statusCode).toBe(404)
    expect(fake.requests.length).toBe(asked)
  })

  test('?w= scales the original fetched from the bucket (WebP, never up), and keeps the copy', async () => {
    const photo = await sharp({ create: { width: 1000, height: 750, channels: 3, background: '#5a8', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 85 }).toBuffer()
    const url = (await upload(t, token, photo, 'image/jpeg')).body.data.url as string
    const gets = () => fake.requests.filter(q => q.method === 'GET').length
    const before = gets()
    const thumb = await t.app.inject({ method: 'GET', url: `${url}?w=150` })
    expect(thumb.statusCode).toBe(200)
    expect(thumb.headers['content-type']).toBe('image/webp')
    expect(thumb.headers['cache-control']).toContain('immutable')
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 160, height: 120 })
    expect(gets()).toBe(before + 1)
    // asked again: the kept copy, the bucket not asked
    expect((await t.app.inject({ method: 'GET', url: `${url}?w=160` })).rawPayload).toEqual(thumb.rawPayload)
    expect(gets()).toBe(before + 1)
    const wide = await t.app.inject({ method: 'GET', url: `${url}?w=4000` })
    expect([wide.headers['content-type'], Buffer.compare(wide.rawPayload, photo)]).toEqual(['image/jpeg', 0])
    expect((await t.app.inject({ method: 'GET', url: `${url}?w=abc` })).statusCode).toBe(400)
  })

  test('speech is kept through the adapter: the WAV in the bucket, served back byte for byte', async () => {
    const u = await makeUser(t.db, t.clock)
    const shopper = await loginToken(t.app, u.user_name!, u.password)
    const r = await post(t.app, '/api/text/tts', { text: 'Your box is on its way' }, { token: shopper, ip: nextIp() })
    expect(r.body).toMatchObject({ code: 200, data: { contentType: 'audio/wav', url: expect.stringMatching(/^\/media\/u\/[0-9a-f]{64}\.wav$/) } })
    const sha = /([0-9a-f]{64})\.wav$/.exec(r.body.data.url)![1]
    const object = await fake.read(`media/${sha}.wav`)
    expect(object?.contentType).toBe('audio/wav')
    expect(sha256(object!.bytes)).toBe(sha)
    expect(Buffer.from((await row(t, sha))!.data).length).toBe(0)
    const served = await t.app.inject({ method: 'GET', url: r.body.data.url })
    expect([served.statusCode, served.headers['content-type']]).toEqual([200, 'audio/wav'])
    expect(served.rawPayload).toEqual(object!.bytes)
  }, 30000)

  test('the same image twice is one object and one row; the second upload writes nothing', async () => {
    const png = makePng(16, 16, [10, 120, 240])
    const sha = sha256(png)
    const rows = await count(t)
    const a = await upload(t, token, png)
    const puts = fake.requests.filter(q => q.method === 'PUT').length
    const b = await upload(t, token, png, 'application/octet-stream')
    expect(b.body.data.url).toBe(a.body.data.url)
    expect(fake.requests.filter(q => q.method === 'PUT').length).toBe(puts)
    expect(await fake.keys(`media/${sha}`)).toEqual([`media/${sha}.png`])
    expect(await count(t)).toBe(rows + 1)
  })

  test('MEDIA_PUBLIC_BASE: an original is a 302 to the CDN; a scaled copy is made here; none kept is a 404', async () => {
    const cdn = await createTestApp(dialect, { env: s3Env(fake, { MEDIA_PUBLIC_BASE: 'https://cdn.example.test/shop/' }) })
    try {
      const opToken = await operator(cdn)
      const photo = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#a63', noise: { type: 'gaussian', mean: 128, sigma: 30 } } }).jpeg({ quality: 85 }).toBuffer()
      const url = (await upload(cdn, opToken, photo, 'image/jpeg')).body.data.url as string
      const sha = sha256(photo)
      const original = await cdn.app.inject({ method: 'GET', url })
      expect([original.statusCode, original.headers.location]).toEqual([302, `https://cdn.example.test/shop/media/${sha}.jpg`])
      // the CDN's origin is the bucket: the key it asks for is there
      expect((await fake.read(`media/${sha}.jpg`))?.bytes).toEqual(photo)
      const thumb = await cdn.app.inject({ method: 'GET', url: `${url}?w=96` })
      expect([thumb.statusCode, thumb.headers['content-type']]).toEqual([200, 'image/webp'])
      expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ width: 96, height: 72 })
      expect((await cdn.app.inject({ method: 'GET', url: `/media/u/${'1'.repeat(64)}.jpg` })).statusCode).toBe(404)
      expect((await cdn.app.inject({ method: 'GET', url: url.replace('.jpg', '.png') })).statusCode).toBe(404)
    } finally {
      await cdn.close()
    }
  })

  /** A shopper with a prize and a password, who posts a photo of it to the player show. */
  const poster = async (app: TestApp, shade: number): Promise<{ s: Shopper; sha: string; postId: number }> => {
    const s = await makeShopper(app.app, app.db, app.clock)
    await app.db.updateTable('users').set({ password_hash: await hashPassword('erase-me-1') }).where('id', '=', s.id).execute()
    await topUp(app.app, s, 1000)
    const seriesId = await makeSeries(app.db, app.clock, { priceCents: 1000 })
    const bought = await buy(app.app, s, { caseId: await currentCaseId(app.app, seriesId, s.token), slots: [1] })
    expect(bought.body.code).toBe(200)
    const png = makePng(10, 10, [shade, 120, 40])
    const form = multipartBody('file', 'pull.png', 'image/png', png)
    const up = (await app.app.inject({
      method: 'POST', url: `${PREFIX}/api/upload/image`, payload: form.body, remoteAddress: nextIp(),
      headers: { 'content-type': form.contentType, authorization: `Bearer ${s.token}` }
    })).json()
    expect(up.code).toBe(200)
    const made = await post(app.app, '/api/show/create', { prizeIds: [bought.body.data.prizes[0].prizeId], images: [up.data.url], text: 'my pull' }, { token: s.token, ip: nextIp() })
    expect(made.body.code).toBe(200)
    return { s, sha: sha256(png), postId: made.body.data.id }
  }
  const deleteAccount = (s: Shopper, app: TestApp) =>
    post(app.app, '/api/security/deleteAccount', { password: 'erase-me-1', forfeit: true }, { token: s.token, ip: nextIp() })

  test("a deleted account's uploads leave the bucket too (PIPL), not only the database; a file the shop shows stays", async () => {
    const { s, sha, postId } = await poster(t, 77)
    expect(await fake.read(`media/${sha}.png`)).not.toBeNull()
    // a screenshot it had read (the contact panel's), and one an operator made a design's picture
    const shopperUpload = async (png: Buffer) => {
      const form = multipartBody('file', 'shot.png', 'image/png', png)
      const res = await t.app.inject({
        method: 'POST', url: `${PREFIX}/api/upload/image`, payload: form.body, remoteAddress: nextIp(),
        headers: { 'content-type': form.contentType, authorization: `Bearer ${s.token}` }
      })
      expect(res.json().code).toBe(200)
      return sha256(png)
    }
    const screenshot = await shopperUpload(makePng(14, 8, [10, 200, 10]))
    const art = await shopperUpload(makePng(8, 14, [200, 10, 200]))
    const design = await t.db.selectFrom('designs').select('id').executeTakeFirstOrThrow()
    await t.db.updateTable('designs').set({ image: `/media/u/${art}.png` }).where('id', '=', design.id).execute()
    const r = await deleteAccount(s, t)
    expect(r.body.code).toBe(200)
    // the rows, the objects and the pending erasures are all gone once the deletion has answered
    expect(await row(t, sha)).toBeUndefined()
    expect(await fake.read(`media/${sha}.png`)).toBeNull()
    expect(await row(t, screenshot)).toBeUndefined()
    expect(await fake.read(`media/${screenshot}.png`)).toBeNull()
    // the design's picture stays, no longer naming who uploaded it
    expect(await row(t, art)).toMatchObject({ uploaded_by: null })
    expect(await fake.read(`media/${art}.png`)).not.toBeNull()
    expect(await t.db.selectFrom('media_erasures').selectAll().execute()).toEqual([])
    expect(fake.requests.some(q => q.method === 'DELETE' && q.target.endsWith(`/media/${sha}.png`) && q.status === 204)).toBe(true)
    expect((await t.app.inject({ method: 'GET', url: `/media/u/${sha}.png` })).statusCode).toBe(404)
    expect((await post(t.app, '/api/show/detail', { postId })).body.code).toBe(404)
  })

  test('an erasure waits for the bucket when it is down, and spares a file uploaded again meanwhile', async () => {
    // a store of its own that goes down: the deletion still answers, the erasure stays pending
    const own = await startFakeS3()
    const app = await createTestApp(dialect, { env: s3Env(own) })
    try {
      const { s, sha } = await poster(app, 91)
      await own.stop()
      const r = await deleteAccount(s, app)
      expect(r.body.code).toBe(200)
      expect(await row(app, sha)).toBeUndefined()
      expect(await app.db.selectFrom('media_erasures').select(['sha256', 'ext']).execute()).toEqual([{ sha256: sha, ext: 'png' }])
      // with the store still down, a pass deletes nothing and keeps the erasure
      const down = new S3MediaStore(app.db, new S3Client(s3Settings(own), Date.now, 2000))
      await expect(eraseMediaObjects(app.db, down)).rejects.toBeInstanceOf(ProviderUnavailableError)
      // unclaimed again, for the next pass
      expect(await app.db.selectFrom('media_erasures').select(['sha256', 'claimed_at']).execute()).toEqual([{ sha256: sha, claimed_at: null }])
    } finally {
      await app.close()
      await own.close()
    }

    // on the shared store: an erasure pending for a file someone uploads again is not carried out
    const again = makePng(9, 9, [15, 160, 200])
    const againSha = sha256(again)
    await t.db.insertInto('media_erasures').values({ sha256: againSha, ext: 'png', created_at: new Date(t.clock.now()).toISOString() }).execute()
    expect((await upload(t, token, again)).status).toBe(200)
    expect(await t.db.selectFrom('media_erasures').select('sha256').where('sha256', '=', againSha).execute()).toEqual([])
    await t.db.insertInto('media_erasures').values({ sha256: againSha, ext: 'png', created_at: new Date(t.clock.now()).toISOString() }).execute()
    const store = new S3MediaStore(t.db, new S3Client(s3Settings(fake)))
    expect(await eraseMediaObjects(t.db, store)).toBe(0)
    expect(await fake.read(`media/${againSha}.png`)).toEqual({ bytes: again, contentType: 'image/png' })
    expect(await t.db.selectFrom('media_erasures').select('sha256').execute()).toEqual([])
    // an upload of a file whose object a pass is deleting right now waits for that pass, then writes it
    const busy = makePng(9, 9, [25, 60, 220])
    const busySha = sha256(busy)
    await t.db.insertInto('media_erasures').values({ sha256: busySha, ext: 'png', created_at: new Date(t.clock.now()).toISOString(), claimed_at: new Date().toISOString() }).execute()
    let answered = false
    const waiting = upload(t, token, busy).then(r => { answered = true; return r })
    await new Promise(resolve => setTimeout(resolve, 400))
    expect(answered).toBe(false)
    expect(await row(t, busySha)).toBeUndefined()
    await t.db.deleteFrom('media_erasures').where('sha256', '=', busySha).execute()
    expect((await waiting).status).toBe(200)
    expect(await fake.read(`media/${busySha}.png`)).toEqual({ bytes: busy, contentType: 'image/png' })
    // a claim left by a pass that died long ago does not hold an upload up
    const orphan = makePng(9, 9, [225, 60, 20])
    const orphanSha = sha256(orphan)
    await t.db.insertInto('media_erasures').values({ sha256: orphanSha, ext: 'png', created_at: new Date(t.clock.now()).toISOString(), claimed_at: new Date(Date.now() - 10 * 60_000).toISOString() }).execute()
    expect((await upload(t, token, orphan)).status).toBe(200)
    expect(await t.db.selectFrom('media_erasures').select('sha256').where('sha256', '=', orphanSha).execute()).toEqual([])

    // and one whose row is gone is deleted from the bucket by the pass
    await t.db.deleteFrom('media').where('sha256', '=', againSha).execute()
    await t.db.insertInto('media_erasures').values({ sha256: againSha, ext: 'png', created_at: new Date(t.clock.now()).toISOString() }).execute()
    expect(await eraseMediaObjects(t.db, store)).toBe(1)
    expect(await fake.read(`media/${againSha}.png`)).toBeNull()
  })

  test('the storage down: uploads and reads are the 502 of provider "media", never a 500, and name no key', async () => {
    const stored = makePng(12, 12, [90, 90, 30])
    const storedUrl = (await upload(t, token, stored)).body.data.url as string
    await fake.stop()
    const rows = await count(t)
    const fresh = makePng(12, 12, [30, 90, 90])
    const up = await upload(t, token, fresh)
    expect(up.status).toBe(502)
    expect(up.body).toEqual({ code: 502, message: 'Picture and file storage is unavailable, please try again later', data: { provider: 'media' } })
    expect(await count(t)).toBe(rows)
    for (const url of [storedUrl, `${storedUrl}?w=8`]) {
      const r = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'zh' } })
      expect({ url, status: r.statusCode }).toEqual({ url, status: 502 })
      expect(r.json()).toEqual({ code: 502, message: '图片与文件存储暂时不可用，请稍后再试', data: { provider: 'media' } })
    }
    const u = await makeUser(t.db, t.clock)
    const tts = await post(t.app, '/api/text/tts', { text: 'Storage is down' }, { token: await loginToken(t.app, u.user_name!, u.password), ip: nextIp() })
    expect([tts.status, tts.body.data]).toEqual([502, { provider: 'media' }])
    // the failure is logged for the operators without the credentials
    const logs = t.logs.join('\n')
    expect(logs).toContain('media: PutObject')
    expect(logs).not.toContain(S3RVER_KEY.secretAccessKey)
    expect(logs).not.toMatch(/Signature=|Credential=/)
  }, 30000)
})
