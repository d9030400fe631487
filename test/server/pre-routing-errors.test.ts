/**
 * Errors before routing answer the envelope {code: 400, message, data} like everything else, never
 * Node's or Fastify's default shape. A real listening server on 127.0.0.1 and raw sockets: app.inject
 * skips Node's HTTP parser, where these requests fail.
 */
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { createTestApp, type TestApp } from './support/app'

/** Sends raw bytes; answers everything the server wrote until it closed the connection (or 5 s). */
function exchange (port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let out = ''
    const timer = setTimeout(() => { socket.destroy(); resolve(out) }, 5000)
    socket.setEncoding('utf8')
    socket.on('data', chunk => { out += chunk })
    socket.on('end', () => { clearTimeout(timer); resolve(out) })
    socket.on('error', err => { clearTimeout(timer); out ? resolve(out) : reject(err) })
    socket.write(bytes)
  })
}

interface Answer { status: number; body: { code: number; message: string; data: unknown } }

/** The HTTP answers in a byte stream (several on a kept-alive connection). */
function answers (raw: string): Answer[] {
  const found: Answer[] = []
  let rest = raw
  while (rest.startsWith('HTTP/1.1 ')) {
    const headEnd = rest.indexOf('\r\n\r\n')
    const head = rest.slice(0, headEnd)
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
    const body = rest.slice(headEnd + 4, headEnd + 4 + length)
    found.push({ status: Number(head.slice(9, 12)), body: JSON.parse(body) })
    rest = rest.slice(headEnd + 4 + length)
  }
  return found
}

describe('errors before routing', () => {
  let t: TestApp
  let port: number
  beforeAll(async () => {
    t = await createTestApp('sqlite')
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as AddressInfo).port
  })
  afterAll(async () => { await t.close() })

  const post = (body: string, contentLength = Buffer.byteLength(body), extra = '') =>
    `POST /dev-api/api/seriesList HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept-Language: zh\r\n${extra}Content-Length: ${contentLength}\r\n\r\n${body}`

  test('a Content-Length shorter than the body: the envelope, never a default shape', async () => {
    const raw = await exchange(port, post('{"page":1,"size":10}', 5))
    const got = answers(raw)
    // the cut body is invalid JSON; the bytes after it ('1,"size":10}') are no request: Node's parser
    // refuses them, and the connection closes with the 400 envelope (the first answer may not get out first)
    expect(got.length).toBeGreaterThanOrEqual(1)
    for (const a of got) expect(a.body).toMatchObject({ code: 400, data: null })
    expect(got.map(a => a.body.message)).toContain('Bad request')
    expect(raw).not.toMatch(/"statusCode"|"error":/)
  })

  test('malformed JSON is the 400 envelope in the request language', async () => {
    const got = answers(await exchange(port, post('{"page": 1,, }')))
    expect(got).toEqual([{ status: 200, body: { code: 400, message: '请求体不是合法的 JSON', data: null } }])
  })

  test('oversized headers: 431 carrying the envelope', async () => {
    const got = answers(await exchange(port, post('{}', 2, `X-Junk: ${'a'.repeat(20000)}\r\n`)))
    expect(got).toEqual([{ status: 431, body: { code: 400, message: 'The request headers are too large', data: null } }])
  })

  test('a broken request line and a malformed URL encoding', async () => {
    const line = answers(await exchange(port, 'GARBAGE\r\n\r\n'))
    expect(line).toEqual([{ status: 400, body: { code: 400, message: 'Bad request', data: null } }])
    const url = answers(await exchange(port, 'GET /dev-api/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'))
    expect(url).toEqual([{ status: 200, body: { code: 400, message: 'Bad request', data: null } }])
    const zh = answers(await exchange(port, 'GET /dev-api/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Language: zh-CN\r\nConnection: close\r\n\r\n'))
    expect(zh).toEqual([{ status: 200, body: { code: 400, message: '请求无效', data: null } }])
  })

  test('the server still answers afterwards', async () => {
    const got = answers(await exchange(port, post('{"page":1,"size":10}', undefined, 'Connection: close\r\n')))
    expect(got).toEqual([{ status: 200, body: { code: 200, message: '操作成功', data: { list: [], total: 0 } } }])
  })
})
