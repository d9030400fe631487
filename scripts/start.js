#!/usr/bin/env node
/**
 * `npm start`: builds the H5 app if it is missing, then starts the shop's server (API + H5 on one
 * port). Until the server exists in server/, serves the H5 build alone on PORT (default 3000).
 */
const { spawnSync, spawn } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const h5Index = path.join(root, 'dist', 'h5', 'index.html')
if (!fs.existsSync(h5Index)) {
  console.log('Building the H5 app (first start only)…')
  const r = spawnSync(path.join(root, 'node_modules', '.bin', 'taro'), ['build', '--type', 'h5'], {
    cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' }
  })
  if (r.status !== 0) process.exit(r.status || 1)
}
// a build made before the build compressed its files gets its brotli and gzip copies now (quick when present)
require('./precompress').precompressDir(path.join(root, 'dist', 'h5'))

const serverMain = path.join(root, 'server', 'src', 'main.ts')
if (fs.existsSync(serverMain)) {
  const child = spawn(path.join(root, 'node_modules', '.bin', 'tsx'), [serverMain], { cwd: root, stdio: 'inherit' })
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
  child.on('exit', code => process.exit(code ?? 0))
} else {
  const { createServer } = require('./serve-h5')
  const port = Number(process.env.PORT || 3000)
  const host = process.env.HOST || '127.0.0.1'
  createServer(path.join(root, 'dist', 'h5')).listen(port, host, () => {
    console.log(`Pickbox H5 app: http://${host}:${port}/  (no API server yet)`)
  })
}
