#!/usr/bin/env node
// Static server for dist/h5 with the history-mode fallback (deep links such as
// /pagesA/home/index?x=1 load the page's own document, pagesA/home/index.html, when the build has
// one, as the shop's server does: server/src/http/static.ts; else index.html). Used until the API server serves the build itself,
// and by tests that need the H5 app alone. Usage: node scripts/serve-h5.js [dir] [port]
const http = require('node:http')
const fs = require('node:fs')
const path = require('node:path')

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8', '.json': 'application/json', '.png': 'image/png',
  '.jpg': 'image/jpeg', '.webp': 'image/webp', '.svg': 'image/svg+xml', '.ico': 'image/x-icon',
  '.mp3': 'audio/mpeg', '.txt': 'text/plain; charset=utf-8'
}

/** The folders of a build that hold no page documents. */
const NOT_PAGES = new Set(['js', 'css', 'static', 'media', 'assets'])

function createServer (root) {
  const ROOT = path.resolve(root)
  return http.createServer((req, res) => {
    let urlPath
    try {
      urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname)
    } catch {
      res.writeHead(400).end('bad url')
      return
    }
    let file = path.join(ROOT, path.normalize(urlPath))
    const inside = file === ROOT || file.startsWith(ROOT + path.sep)
    const isFile = inside && fs.existsSync(file) && fs.statSync(file).isFile()
    if (!isFile) {
      // a page route's own document: <route>.html, for routes such as /pagesA/home/index, never in
      // the folders of scripts, styles and files (the same rule as server/src/http/static.ts)
      const route = urlPath.replace(/\/+$/, '')
      const page = /^\/([\w-]+)(\/[\w-]+)*\/index$/.exec(route)
      const own = page && !NOT_PAGES.has(page[1]) && path.join(ROOT, `${route}.html`)
      file = own && fs.existsSync(own) && fs.statSync(own).isFile() ? own : path.join(ROOT, 'index.html')
    }
    const type = TYPES[path.extname(file)] || 'application/octet-stream'
    const immutable = isFile && /\.[0-9a-f]{8}\.(js|css)$/.test(file)
    res.writeHead(200, { 'Content-Type': type, 'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache' })
    fs.createReadStream(file).pipe(res)
  })
}

module.exports = { createServer }

if (require.main === module) {
  const root = process.argv[2] || path.join(__dirname, '..', 'dist', 'h5')
  const port = Number(process.argv[3] || process.env.PORT || 5180)
  createServer(root).listen(port, '127.0.0.1', () => console.log(`serving ${root} on http://127.0.0.1:${port}`))
}
