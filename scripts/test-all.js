#!/usr/bin/env node
/**
 * `npm test`: everything CI runs, in order, stopping at the first failure.
 * Set SKIP_BUILD=1 to reuse existing dist/ builds when iterating locally.
 */
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
const prod = { NODE_ENV: 'production' }
const { WEAPP_TEST_API_BASE } = require('../test/weapp/origin')

const steps = [
  ['typecheck (app)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
  fs.existsSync(path.join(root, 'server', 'tsconfig.json')) && ['typecheck (server)', bin('tsc'), ['--noEmit', '-p', 'server/tsconfig.json']],
  ['unit and component tests', bin('jest'), ['-c', 'jest.config.js', '--ci']],
  fs.existsSync(path.join(root, 'jest.server.config.js')) && ['server tests (SQLite and PostgreSQL)', bin('jest'), ['-c', 'jest.server.config.js', '--ci']],
  // the production mini-program, with the https API address the simulator's WeChat lists (test/weapp/origin.js)
  !process.env.SKIP_BUILD && ['build weapp', bin('taro'), ['build', '--type', 'weapp'], { ...prod, TARO_APP_API_BASE: WEAPP_TEST_API_BASE }],
  ['weapp package sizes', process.execPath, ['scripts/check-weapp-size.js']],
  ['weapp configuration and WeChat\'s code-quality check (miniprogram-ci)', process.execPath, ['scripts/check-weapp-wechat.js']],
  ['weapp (miniprogram-simulate)', bin('jest'), ['-c', 'jest.weapp.config.js', '--ci']],
  !process.env.SKIP_BUILD && ['build h5', bin('taro'), ['build', '--type', 'h5'], prod],
  ["bundles carry no schema code and no Preact (H5: no style-loader, MobX in its own chunk, Taro's styles before the app's)", process.execPath, ['scripts/check-bundles.js', 'h5', 'weapp']],
  ['h5 end to end (Chromium)', process.execPath, ['test/e2e/run.js']]
].filter(Boolean)

const t0 = Date.now()
for (const [name, cmd, args, env] of steps) {
  const t = Date.now()
  console.log(`\n=== ${name}`)
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  const secs = ((Date.now() - t) / 1000).toFixed(1)
  if (r.status !== 0) {
    console.error(`\n✗ ${name} failed after ${secs} s`)
    process.exit(r.status || 1)
  }
  console.log(`✓ ${name} (${secs} s)`)
}
console.log(`\nAll ${steps.length} steps passed in ${((Date.now() - t0) / 1000).toFixed(0)} s`)
