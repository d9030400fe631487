/**
 * Precompressed H5 delivery: the build's brotli and gzip copies (scripts/precompress.js) are sent by
 * Accept-Encoding with `Vary: Accept-Encoding` and the caching of the file they stand for; what is
 * decoded is byte for byte the file; clients without compression get the plain file.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'

import { documentFor } from '../../server/src/http/static'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { precompressDir } = require('../../scripts/precompress.js') as {
  precompressDir: (dir: string) => { files: number; bytes: number; br: number; gz: number }
}

/** Text that compresses the way a bundle does (repetitive identifiers), about 40 KB. */
function bundleLike (): string {
  const lines: string[] = []
  for (let i = 0; i < 800; i++) lines.push(`function component${i % 97}(props){return createElement("view",{className:"item-${i}"},props.children)}`)
  return lines.join('\n')
}

describe('precompressed static files', () => {
  let dir: string
  let app: Awaited<ReturnType<typeof import('../../server/src/app')['buildApp']>>
  const js = bundleLike()
  const html = `<!doctype html><html><head><title>shop</title></head><body>${'<div class="skeleton"></div>'.repeat(80)}</body></html>`
  const homeHtml = `<!doctype html><html><head><title>home</title></head><body>${'<div class="series-skeleton"></div>'.repeat(60)}</body></html>`
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(4000, 7)])

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h5-br-'))
    fs.mkdirSync(path.join(dir, 'js'))
    fs.mkdirSync(path.join(dir, 'static'))
    fs.writeFileSync(path.join(dir, 'index.html'), html)
    // a page's own document (scripts/prerender.js writes home's), and an index.html among the scripts
    // that is no page's
    fs.mkdirSync(path.join(dir, 'pagesA', 'home'), { recursive: true })
    fs.writeFileSync(path.join(dir, 'pagesA', 'home', 'index.html'), homeHtml)
    fs.mkdirSync(path.join(dir, 'js', 'pagesA'))
    fs.writeFileSync(path.join(dir, 'js', 'pagesA', 'index.html'), 'not a page')
    fs.writeFileSync(path.join(dir, 'js', 'app.0123abcd.js'), js)
    fs.writeFileSync(path.join(dir, 'js', 'tiny.0123abcd.js'), 'console.log(1)')
    fs.writeFileSync(path.join(dir, 'static', 'logo.png'), png)
    const { buildApp } = await import('../../server/src/app')
    const { loadConfig } = await import('../../server/src/config')
    const { openDatabase } = await import('../../server/src/db')
    const summary = precompressDir(dir)
    expect(summary.files).toBe(3) // app.js and the two documents; tiny.js and js/pagesA/index.html are under 1 KiB, the PNG is no text
    app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', STATIC_DIR: dir }), database: openDatabase({}), maintenance: false })
  })
  afterAll(async () => {
    await app.close()
    fs.rmSync(dir, { recursive: true, force: true })
  })

  test('the build step writes smaller brotli and gzip copies, and none for small or binary files', () => {
    const br = fs.statSync(path.join(dir, 'js', 'app.0123abcd.js.br')).size
    const gz = fs.statSync(path.join(dir, 'js', 'app.0123abcd.js.gz')).size
    expect(br).toBeLessThan(gz)
    expect(gz).toBeLessThan(js.length / 4)
    expect(fs.existsSync(path.join(dir, 'js', 'tiny.0123abcd.js.br'))).toBe(false)
    expect(fs.existsSync(path.join(dir, 'static', 'logo.png.gz'))).toBe(false)
  })

  test('brotli first, by the client\'s Accept-Encoding; the decoded bytes are the file', async () => {
    const res = await app.inject({ method: 'GET', url: '/js/app.0123abcd.js', headers: { 'accept-encoding': 'gzip, deflate, br' } })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-encoding']).toBe('br')
    expect(res.headers['content-type']).toMatch(/javascript/)
    expect(res.headers.vary).toMatch(/accept-encoding/i)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(Number(res.headers['content-length'])).toBeLessThan(js.length / 4)
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(js)
  })

  test('gzip when brotli is refused or unknown', async () => {
    for (const enc of ['gzip', 'br;q=0, gzip', 'gzip, deflate']) {
      const res = await app.inject({ method: 'GET', url: '/js/app.0123abcd.js', headers: { 'accept-encoding': enc } })
      expect(res.headers['content-encoding']).toBe('gzip')
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(zlib.gunzipSync(res.rawPayload).toString()).toBe(js)
    }
  })

  test('the plain file without Accept-Encoding (or with identity only), still saying Vary', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }]) {
      const res = await app.inject({ method: 'GET', url: '/js/app.0123abcd.js', headers })
      expect(res.headers['content-encoding']).toBeUndefined()
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(res.body).toBe(js)
    }
  })

  test('index.html, at / and as the history fallback, is compressed and revalidated', async () => {
    for (const url of ['/', '/pagesA/profile/index?x=1']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-encoding': 'br' } })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBe('br')
      expect(res.headers['content-type']).toMatch(/text\/html/)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(res.headers.vary).toMatch(/accept-encoding/i)
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(html)
    }
  })

  test('a page with a document of its own gets it, compressed and revalidated; every other page route gets index.html', async () => {
    for (const url of ['/pagesA/home/index', '/pagesA/home/index/', '/pagesA/home/index?x=1#top']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html', 'accept-encoding': 'br' } })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBe('br')
      expect(res.headers['content-type']).toMatch(/text\/html/)
      expect(res.headers['cache-control']).toBe('no-cache')
      expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(homeHtml)
    }
    const plain = await app.inject({ method: 'HEAD', url: '/pagesA/home/index', headers: { accept: 'text/html' } })
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-length']).toBe(String(Buffer.byteLength(homeHtml)))
    for (const url of ['/pagesA/profile/index', '/pagesA/home/index/x', '/PAGESA/HOME/INDEX', '/js/pagesA/index']) {
      const res = await app.inject({ method: 'GET', url, headers: { accept: 'text/html' } })
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe(html)
    }
  })

  test('a page route\'s document is its route plus .html when the build has it, never outside the pages', () => {
    expect(documentFor(dir, '/pagesA/home/index')).toBe('pagesA/home/index.html')
    for (const url of ['/', '/index', '/pagesA/home', '/js/pagesA/index', '/pagesA/../pagesA/home/index', '/pagesA/home.x/index', '/pagesA/profile/index']) {
      expect(documentFor(dir, url)).toBe('index.html')
    }
  })

  test('a document removed after the start (a rebuild without the prerender) is no longer sent', async () => {
    const file = path.join(dir, 'pagesA', 'home', 'index.html')
    const kept = fs.readFileSync(file)
    const copies = ['.br', '.gz'].map(ext => [ext, fs.readFileSync(file + ext)] as const)
    try {
      for (const f of [file, ...copies.map(([ext]) => file + ext)]) fs.rmSync(f)
      const res = await app.inject({ method: 'GET', url: '/pagesA/home/index', headers: { accept: 'text/html' } })
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe(html)
    } finally {
      fs.writeFileSync(file, kept)
      for (const [ext, data] of copies) fs.writeFileSync(file + ext, data)
    }
  })

  test('files without copies are sent as they are: small scripts and images', async () => {
    const tiny = await app.inject({ method: 'GET', url: '/js/tiny.0123abcd.js', headers: { 'accept-encoding': 'br, gzip' } })
    expect(tiny.statusCode).toBe(200)
    expect(tiny.headers['content-encoding']).toBeUndefined()
    expect(tiny.body).toBe('console.log(1)')
    const img = await app.inject({ method: 'GET', url: '/static/logo.png', headers: { 'accept-encoding': 'br, gzip' } })
    expect(img.statusCode).toBe(200)
    expect(img.headers['content-encoding']).toBeUndefined()
    expect(img.headers.vary).toBeUndefined()
    expect(img.rawPayload.equals(png)).toBe(true)
  })

  test('a copy is remade when its file changes, and kept when it does not', () => {
    const file = path.join(dir, 'js', 'app.0123abcd.js')
    const before = fs.statSync(`${file}.br`).mtimeMs
    precompressDir(dir)
    expect(fs.statSync(`${file}.br`).mtimeMs).toBe(before)
    const later = new Date(Date.now() + 5000)
    fs.writeFileSync(file, js + '\n// changed')
    fs.utimesSync(file, later, later)
    precompressDir(dir)
    expect(zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)).toString()).toBe(js + '\n// changed')
  })
})

describe('immutable answers', () => {
  test('a hashed file is sent without what revalidation and ranges need; a document keeps them', async () => {
    const { buildApp } = await import('../../server/src/app')
    const { loadConfig } = await import('../../server/src/config')
    const { openDatabase } = await import('../../server/src/db')
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'h5-imm-'))
    fs.mkdirSync(path.join(dir, 'js'))
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>shop</title>')
    fs.writeFileSync(path.join(dir, 'js', 'app.0123abcd.js'), 'console.log(1)')
    const app = await buildApp({ config: loadConfig({ NODE_ENV: 'test', STATIC_DIR: dir }), database: openDatabase({}), maintenance: false })
    try {
      const js = await app.inject({ method: 'GET', url: '/js/app.0123abcd.js' })
      expect(js.statusCode).toBe(200)
      expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      for (const name of ['etag', 'last-modified', 'accept-ranges', 'x-request-id']) expect(js.headers[name]).toBeUndefined()
      expect(js.body).toBe('console.log(1)')
      const art = await app.inject({ method: 'GET', url: '/media/art/1f381.webp' })
      expect(art.statusCode).toBe(200)
      expect(art.headers['cache-control']).toBe('public, max-age=31536000, immutable')
      expect(art.headers['x-request-id']).toBeUndefined()
      // the document is revalidated on each visit: it keeps its validators, and the request's id
      const doc = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })
      expect(doc.statusCode).toBe(200)
      expect(doc.headers['cache-control']).toBe('no-cache')
      expect(doc.headers.etag).toBeTruthy()
      expect(doc.headers['x-request-id']).toBeTruthy()
      const again = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html', 'if-none-match': String(doc.headers.etag) } })
      expect(again.statusCode).toBe(304)
    } finally {
      await app.close()
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
