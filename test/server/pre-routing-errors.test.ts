/**
 * Errors before routing answer the envelope {code: 400, message, data} like everything else, never
 * Node's or Fastify's default shape. A real listening server on 127.0.0.1 and raw sockets: app.inject
 * skips Node's HTTP parser, where these requests fail.
 */
import net from 'node:net'
import type { AddressInfo } from 'node:net'
import { createTestApp, type TestApp } from './support/app'
import { testDialects } from './support/db'

/**
 * Sends raw bytes (then ends the sending side when `halfClose`); answers everything the server wrote
 * until it closed the connection (or 5 s).
 */
function exchange (port: number, bytes: string, halfClose = false): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let out = ''
    const timer = setTimeout(() => { socket.destroy(); resolve(out) }, 5000)
    socket.setEncoding('utf8')
    socket.on('data', chunk => { out += chunk })
    socket.on('end', () => { clearTimeout(timer); resolve(out) })
    socket.on('error', err => { clearTimeout(timer); out ? resolve(out) : reject(err) })
    socket.write(bytes)
    if (halfClose) socket.end()
  })
}

interface Answer { status: number; body: { code: number; message: string; data: unknown } }

/** The HTTP answers in a byte stream (several on a kept-alive connection). */
function answers (raw: string): Answer[] {
  const found: Answer[] = []
  // Content-Length counts bytes
  let rest = Buffer.from(raw, 'utf8')
  while (rest.subarray(0, 9).toString('latin1') === 'HTTP/1.1 ') {
    const headEnd = rest.indexOf('\r\n\r\n')
    const head = rest.subarray(0, headEnd).toString('latin1')
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0)
    const body = rest.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8')
    found.push({ status: Number(head.slice(9, 12)), body: JSON.parse(body) })
    rest = rest.subarray(headEnd + 4 + length)
  }
  expect(rest.toString('utf8')).toBe('')
  return found
}

describe.each(testDialects())('errors before routing on %s', (dialect) => {
  let t: TestApp
  let port: number
  beforeAll(async () => {
    t = await createTestApp(dialect)
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    port = (t.app.server.address() as AddressInfo).port
  })
  afterAll(async () => { await t.close() })

  const post = (body: string, contentLength = Buffer.byteLength(body), extra = '', lang = 'zh') =>
    `POST /dev-api/api/seriesList HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept-Language: ${lang}\r\n${extra}Content-Length: ${contentLength}\r\n\r\n${body}`
  // page 1 of the series list also carries the theme tags for home's filter (issue 27)
  const listed = { status: 200, body: { code: 200, message: '操作成功', data: { list: [], total: 0, tags: [] } } }

  test('a Content-Length shorter than the body, cutting the JSON: the 400 envelope in the request language, nothing else', async () => {
    const raw = await exchange(port, post('{"page":1,"size":10}', 5))
    // the cut body '{"pag' is answered; Fastify closes the connection after a body it could not parse,
    // so the bytes after it ('e":1,"size":10}') are never read as a request
    expect(answers(raw)).toEqual([{ status: 200, body: { code: 400, message: '请求体不是合法的 JSON', data: null } }])
    expect(raw).not.toMatch(/"statusCode"|"error":/)
  })

  test('a Content-Length shorter than the body, after a whole request: its answer, then the 400 envelope in its language', async () => {
    // the first 20 bytes are a whole request; the 7 after it are no request: Node's parser refuses them
    const zh = answers(await exchange(port, post('{"page":1,"size":10}{"a":1}', 20)))
    expect(zh).toEqual([listed, { status: 400, body: { code: 400, message: '请求无效', data: null } }])
    const en = answers(await exchange(port, post('{"page":1,"size":10}{"a":1}', 20, '', 'en')))
    expect(en).toEqual([{ status: 200, body: { code: 200, message: 'OK', data: { list: [], total: 0, tags: [] } } }, { status: 400, body: { code: 400, message: 'Bad request', data: null } }])
  })

  test('a Content-Length longer than the body, then the client stops sending: the 400 envelope', async () => {
    const got = answers(await exchange(port, post('{"page":1}', 50), true))
    expect(got).toEqual([{ status: 400, body: { code: 400, message: '请求无效', data: null } }])
  })

  test('malformed JSON is the 400 envelope in the request language', async () => {
    const got = answers(await exchange(port, post('{"page": 1,, }')))
    expect(got).toEqual([{ status: 200, body: { code: 400, message: '请求体不是合法的 JSON', data: null } }])
  })

  test('oversized headers: 431 carrying the envelope in the request language', async () => {
    const junk = `X-Junk: ${'a'.repeat(20000)}\r\n`
    const zh = answers(await exchange(port, post('{}', 2, junk)))
    expect(zh).toEqual([{ status: 431, body: { code: 400, message: '请求头过大', data: null } }])
    const en = answers(await exchange(port, post('{}', 2, junk, 'en-US')))
    expect(en).toEqual([{ status: 431, body: { code: 400, message: 'The request headers are too large', data: null } }])
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
    expect(got).toEqual([{ status: 200, body: { code: 200, message: '操作成功', data: { list: [], total: 0, tags: [] } } }])
  })
})
