#!/usr/bin/env node
/**
 * `npm start`: builds the H5 app if it is missing, then starts the shop's server (API + H5 on one
 * port).
 *
 * NODE_ENV=production (in the environment or in ./.env): the server runs compiled, with plain node
 * (dist/server/server/src/main.js, compiled first when missing or older than its sources:
 * scripts/build-server.js). Otherwise it runs from the TypeScript sources under tsx, with no build
 * step, so an edit is in the next start and stack traces name the .ts lines.
 *
 * The H5 app is built only for the default STATIC_DIR (dist/h5): a STATIC_DIR elsewhere is the
 * operator's own build.
 */
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { parseEnv } = require('node:util')
const { quietBuild } = require('./quietBuild')

const root = path.resolve(__dirname, '..')

/** A variable as the server will see it: the environment first, then ./.env (server/src/main.ts reads it so). */
function setting (name) {
  if (process.env[name] !== undefined) return process.env[name]
  const file = path.join(root, '.env')
  if (!fs.existsSync(file)) return undefined
  return parseEnv(fs.readFileSync(file, 'utf8'))[name]
}

async function main () {
  const production = (setting('NODE_ENV') || '').trim() === 'production'

  const defaultStatic = path.join(root, 'dist', 'h5')
  const staticDir = path.resolve(root, (setting('STATIC_DIR') || '').trim() || defaultStatic)
  if (staticDir === defaultStatic) {
    if (!fs.existsSync(path.join(defaultStatic, 'index.html'))) {
      // quiet: a line of progress, the build's own output only if it fails (scripts/quietBuild.js)
      const status = await quietBuild(path.join(root, 'node_modules', '.bin', 'taro'), ['build', '--type', 'h5'], {
        cwd: root, env: { ...process.env, NODE_ENV: 'production' }
      })
      if (status !== 0) process.exit(status || 1)
    }
    // a build made before the build compressed its files gets its brotli and gzip copies now (quick when present)
    require('./precompress').precompressDir(defaultStatic)
  }

  let command
  let args
  if (production) {
    const { ensureServerBuilt, nodeRunsCompiledServer } = require('./build-server')
    if (!nodeRunsCompiledServer()) {
      console.error(`The compiled server needs Node 20.19 or later (22.12 or later on Node 22); this is Node ${process.versions.node}.`)
      process.exit(1)
    }
    try {
      args = [ensureServerBuilt()]
    } catch (err) {
      console.error(err.message)
      process.exit(1)
    }
    command = process.execPath
  } else {
    command = path.join(root, 'node_modules', '.bin', 'tsx')
    args = [path.join(root, 'server', 'src', 'main.ts')]
  }

  const child = spawn(command, args, { cwd: root, stdio: 'inherit' })
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig))
  // a server ended by a signal it did not handle (SIGKILL, e.g. the kernel's out-of-memory killer) is
  // a failure, reported as a shell would (128 + the signal's number), so a supervisor restarts it
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (os.constants.signals[signal] || 0)))
}

main().catch(err => { console.error(err); process.exit(1) })
