/**
 * scripts/serve-h5.js, the static server of the H5 build alone (screenshots, bench/h5-size.js, the
 * prerender): files as they are, and for a page route the page's own document when the build has one
 * (pagesA/home/index.html for /pagesA/home/index, as scripts/prerender.js writes it and the shop's
 * server sends it), else index.html.
 */
import fs from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createServer } = require('../../scripts/serve-h5.js') as { createServer: (root: string) => http.Server }

let dir: string
let server: http.Server
let base: string

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'serve-h5-'))
  fs.writeFileSync(path.join(dir, 'index.html'), 'login document')
  fs.mkdirSync(path.join(dir, 'pagesA', 'home'), { recursive: true })
  fs.writeFileSync(path.join(dir, 'pagesA', 'home', 'index.html'), 'home document')
  fs.mkdirSync(path.join(dir, 'js'))
  fs.writeFileSync(path.join(dir, 'js', 'app.0123abcd.js'), 'console.log(1)')
  fs.mkdirSync(path.join(dir, 'js', 'pagesA'))
  fs.writeFileSync(path.join(dir, 'js', 'pagesA', 'index.html'), 'not a page')
  fs.writeFileSync(path.join(dir, 'secret.html'), 'not a page')
  server = createServer(dir)
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise(resolve => server.close(resolve))
  fs.rmSync(dir, { recursive: true, force: true })
})

const get = (url: string) => new Promise<{ status?: number, type?: string, cache?: string, body: string }>((resolve, reject) => {
  http.get(base + url, res => {
    let body = ''
    res.setEncoding('utf8')
    res.on('data', chunk => { body += chunk })
    res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], cache: res.headers['cache-control'], body }))
  }).on('error', reject)
})

test('a page route with a document of its own gets it, revalidated', async () => {
  for (const url of ['/pagesA/home/index', '/pagesA/home/index/', '/pagesA/home/index?x=1']) {
    expect(await get(url)).toEqual({ status: 200, type: 'text/html; charset=utf-8', cache: 'no-cache', body: 'home document' })
  }
})

test('every other route gets index.html; a document is never taken from outside a page route', async () => {
  for (const url of ['/', '/pages/login/index', '/pagesA/profile/index', '/pagesA/home', '/secret', '/pagesA/home/index/x', '/js/pagesA/index']) {
    expect((await get(url)).body).toBe('login document')
  }
})

test('files are sent as they are, hashed ones cached for a year', async () => {
  const js = await get('/js/app.0123abcd.js')
  expect(js.body).toBe('console.log(1)')
  expect(js.cache).toBe('public, max-age=31536000, immutable')
})
