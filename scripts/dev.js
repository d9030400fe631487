#!/usr/bin/env node
/**
 * `npm run dev`: the API server in watch mode (tsx watch, port PORT or 3000) and Taro's H5 dev server
 * (port 10086), which proxies /dev-api to the API. Ctrl-C stops both.
 */
const { spawn } = require('node:child_process')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const bin = name => path.join(root, 'node_modules', '.bin', name)
const apiPort = process.env.PORT || '3000'

const children = [
  spawn(bin('tsx'), ['watch', '--clear-screen=false', 'server/src/main.ts'], {
    cwd: root, stdio: 'inherit', env: { ...process.env, PORT: apiPort, NODE_ENV: process.env.NODE_ENV || 'development' }
  }),
  spawn(bin('taro'), ['build', '--type', 'h5', '--watch'], {
    cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'development', API_PROXY_TARGET: `http://127.0.0.1:${apiPort}` }
  })
]

let stopping = false
function stop (code) {
  if (stopping) return
  stopping = true
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
  setTimeout(() => process.exit(code), 500).unref()
}
for (const c of children) c.on('exit', code => stop(code ?? 0))
process.on('SIGINT', () => stop(0))
process.on('SIGTERM', () => stop(0))
