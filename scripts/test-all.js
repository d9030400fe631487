#!/usr/bin/env node
/**
 * `npm test`: everything CI runs. The steps run side by side as far as the processors allow: a step
 * starts once the steps it needs have passed and there are processors for it (TEST_CPUS, by default
 * the machine's count plus two, as the two long steps wait on browsers, databases, processes and
 * timers part of the time). A step counts the processors it keeps busy: 2 for the server tests' one
 * Jest of two workers, 1 for the others. The server tests are the longest step (about 1,100 s of CPU
 * with PostgreSQL's), so they start at once; the H5 build and then the e2e (a long chain that mostly
 * waits) take the next place, and the short steps fill in beside them. Each step's output is kept and
 * shown whole when it ends, with its wall and CPU time. The first failure stops the others and fails
 * the run.
 * Set SKIP_BUILD=1 to reuse existing dist/ builds when iterating locally.
 * TEST_CPUS=1 runs the steps one by one, in the order listed. TEST_STEPS=typecheck,unit runs only the
 * steps whose names contain one of the words.
 */
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)
const has = (file) => fs.existsSync(path.join(root, file))
const scripts = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts ?? {}
const prod = { NODE_ENV: 'production' }
const { WEAPP_TEST_API_BASE } = require('../test/weapp/origin')
const skipBuild = Boolean(process.env.SKIP_BUILD)

/**
 * name, command, arguments; `env`; `needs`: steps that must pass first (a build left out by SKIP_BUILD
 * counts as passed); `cpus`: the processors it keeps busy (Jest's two workers); `nice`: the niceness it
 * runs at, its session's included (scripts/test-step.js: with Linux's autogroups a process's own
 * niceness weighs nothing against another session, and each step is a session). The server tests are
 * the whole run's length: they wait on server starts, paced bursts, backups and timers, and under load
 * every wait grows. While every step had an equal share the run took 1,343 s; with the steps that have
 * no clock in them (typechecks, lint, boundaries) at the lowest weight, 773 s (docs/testing.md).
 * Listed in order of priority: the server tests, then each build before what needs it, then the short
 * steps. A webpack build keeps one processor busy (69 s of CPU in 111 s for H5, 49 s in 77 s for the
 * mini-program, beside the others).
 */
/** A step with no clock in it: the lowest weight (test-step.js), and no place of `cpus`. */
const idle = { nice: 19, cpus: 0 }

const steps = [
  ...(has('jest.server.config.js') ? serverShards() : []),
  // the builds keep full priority: the e2e and the simulator, the next longest chains, wait on them
  !skipBuild && { name: 'build h5', cmd: bin('taro'), args: ['build', '--type', 'h5'], env: prod },
  // one processor's worth: its Chromium and two shops wait on pages and timers much of the time
  // (440 s of CPU in 800 s of wall time on 2 cores beside the server tests)
  { name: 'h5 end to end (Chromium)', cmd: process.execPath, args: ['test/e2e/run.js'], needs: ['build h5'] },
  // the production mini-program, with the https API address the simulator's WeChat lists (test/weapp/origin.js)
  !skipBuild && { name: 'build weapp', cmd: bin('taro'), args: ['build', '--type', 'weapp'], env: { ...prod, TARO_APP_API_BASE: WEAPP_TEST_API_BASE } },
  // one processor's worth too (99 s of CPU in 124 s); its pages wait on timers
  { name: 'weapp (miniprogram-simulate)', cmd: bin('jest'), args: ['-c', 'jest.weapp.config.js', '--ci'], needs: ['build weapp'] },
  // no clock in these to miss: they start at once and take the processor time the others leave idle
  // (the lowest weight, so they take no place of `cpus` either)
  { name: 'typecheck (app)', cmd: bin('tsc'), args: ['--noEmit', '-p', 'tsconfig.json'], ...idle },
  has('server/tsconfig.json') && { name: 'typecheck (server)', cmd: bin('tsc'), args: ['--noEmit', '-p', 'server/tsconfig.json'], ...idle },
  // (its tests have timeouts: it keeps the server tests' priority)
  { name: 'unit and component tests', cmd: bin('jest'), args: ['-c', 'jest.config.js', '--ci', '--maxWorkers=1'] },
  scripts.lint && { name: 'lint (ESLint)', cmd: npm(), args: ['run', '--silent', 'lint'], ...idle },
  scripts['check:boundaries'] && { name: 'import boundaries (dependency-cruiser)', cmd: npm(), args: ['run', '--silent', 'check:boundaries'], ...idle },
  { name: 'weapp package sizes', cmd: process.execPath, args: ['scripts/check-weapp-size.js'], needs: ['build weapp'] },
  { name: 'weapp configuration and WeChat\'s code-quality check (miniprogram-ci)', cmd: process.execPath, args: ['scripts/check-weapp-wechat.js'], needs: ['build weapp'] },
  { name: "bundles carry no schema code and no Preact (H5: no style-loader, MobX in its own chunk, Taro's styles before the app's)", cmd: process.execPath, args: ['scripts/check-bundles.js', 'h5', 'weapp'], needs: ['build h5', 'build weapp'] }
].filter(Boolean).filter(s => {
  const only = (process.env.TEST_STEPS ?? '').split(',').map(w => w.trim()).filter(Boolean)
  return !only.length || only.some(w => s.name.includes(w))
})

/**
 * The server tests: one Jest of two workers (two processors of work with PostgreSQL's, less where the
 * suites wait on processes and timers), which on two cores runs beside the e2e. SERVER_SHARDS=n splits
 * them into n Jests of one file at a time, of about equal length (test/support/balanced-sequencer.js),
 * steps of one processor each, for machines with more cores than the e2e and one Jest can use; on two
 * cores three such shards took 1,900 s of wall time between them where one Jest took 744 s.
 */
function serverShards () {
  const n = Math.max(1, Number(process.env.SERVER_SHARDS) || 1)
  if (n === 1) return [{ name: 'server tests (SQLite and PostgreSQL)', cmd: bin('jest'), args: ['-c', 'jest.server.config.js', '--ci'], cpus: 2 }]
  return Array.from({ length: n }, (_, i) => ({
    name: `server tests ${i + 1}/${n} (SQLite and PostgreSQL)`,
    cmd: bin('jest'),
    args: ['-c', 'jest.server.config.js', '--ci', `--shard=${i + 1}/${n}`, '--maxWorkers=1']
  }))
}

function npm () {
  return process.platform === 'win32' ? 'npm.cmd' : 'npm'
}

const cpusAvailable = Math.max(1, Number(process.env.TEST_CPUS) || (os.availableParallelism?.() ?? os.cpus().length) + 2)
const names = new Set(steps.map(s => s.name))
const t0 = Date.now()
const results = []
const waiting = [...steps]
const running = new Map()
const passed = new Set()
let failed = false

const seconds = (ms) => (ms / 1000).toFixed(1)
const cpuText = (cpu) => cpu == null ? '' : `, CPU ${cpu.toFixed(1)} s`

function ready (step) {
  return (step.needs ?? []).every(n => passed.has(n) || !names.has(n))
}

function used () {
  let n = 0
  for (const { step } of running.values()) n += step.cpus ?? 1
  return n
}

function schedule () {
  if (failed) return
  for (const step of [...waiting]) {
    if (!ready(step)) continue
    if (running.size && used() + (step.cpus ?? 1) > cpusAvailable) continue
    waiting.splice(waiting.indexOf(step), 1)
    start(step)
  }
  if (!running.size && !waiting.length) finish()
}

function start (step) {
  const t = Date.now()
  const out = []
  console.log(`▶ ${step.name} (at ${seconds(t - t0)} s)`)
  // a process group of its own, so that stopping the step stops everything it started
  const child = spawn(process.execPath, [path.join(__dirname, 'test-step.js'), step.cmd, ...step.args], {
    cwd: root,
    env: { ...process.env, ...step.env, ...(step.nice ? { TEST_STEP_NICE: String(step.nice) } : {}) },
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32'
  })
  let report = ''
  child.stdout.on('data', d => out.push(d))
  child.stderr.on('data', d => out.push(d))
  child.stdio[3].on('data', d => { report += d })
  running.set(step.name, { step, child, t })
  child.on('close', (code) => {
    running.delete(step.name)
    let r = {}
    try { r = JSON.parse(report) } catch {}
    const status = r.status ?? code ?? 1
    const wall = Date.now() - t
    results.push({ name: step.name, at: t - t0, wall, cpu: r.cpu ?? null, status })
    if (failed) return
    console.log(`\n=== ${step.name}`)
    process.stdout.write(Buffer.concat(out))
    if (r.error) console.log(r.error)
    if (status !== 0) {
      console.error(`\n✗ ${step.name} failed after ${seconds(wall)} s${cpuText(r.cpu)}`)
      stopAll(step.name, status)
      return
    }
    console.log(`✓ ${step.name} (${seconds(wall)} s${cpuText(r.cpu)})`)
    passed.add(step.name)
    schedule()
  })
}

function stopAll (culprit, status) {
  failed = true
  for (const { step, child, t } of running.values()) {
    console.error(`  stopped: ${step.name} (running for ${seconds(Date.now() - t)} s)`)
    kill(child, 'SIGTERM')
    setTimeout(() => kill(child, 'SIGKILL'), 10000).unref()
  }
  if (waiting.length) console.error(`  not run: ${waiting.map(s => s.name).join('; ')}`)
  console.error(`\nnpm test FAILED: ${culprit} (after ${seconds(Date.now() - t0)} s)`)
  process.exitCode = status || 1
}

function kill (child, signal) {
  try {
    if (process.platform === 'win32') child.kill(signal)
    else process.kill(-child.pid, signal)
  } catch {}
}

function finish () {
  const total = Date.now() - t0
  console.log(`\n${'step'.padEnd(44)} ${'start'.padStart(7)} ${'wall'.padStart(7)} ${'CPU'.padStart(7)}`)
  for (const r of results) {
    console.log(`${r.name.slice(0, 44).padEnd(44)} ${seconds(r.at).padStart(7)} ${seconds(r.wall).padStart(7)} ${(r.cpu == null ? '-' : r.cpu.toFixed(1)).padStart(7)}`)
  }
  const cpu = results.reduce((s, r) => s + (r.cpu ?? 0), 0)
  console.log(`\nAll ${steps.length} steps passed in ${seconds(total)} s (CPU ${cpu.toFixed(0)} s, ${cpusAvailable} processors' worth of steps at a time)`)
}

// Ctrl-C or CI's own stop: take the steps down with us
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    for (const { child } of running.values()) kill(child, sig)
    process.exit(130)
  })
}

// a line every two minutes while steps run, so that a long quiet stretch is not taken for a hang
setInterval(() => {
  if (!running.size || failed) return
  const now = Date.now()
  console.log(`… at ${seconds(now - t0)} s, running: ${[...running.values()].map(r => `${r.step.name} (${seconds(now - r.t)} s)`).join('; ')}`)
}, 120000).unref()

schedule()
