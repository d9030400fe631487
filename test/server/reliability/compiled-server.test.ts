/**
 * The compiled server (issue 26 item 4): `npm run build:server` compiles the server into dist/server/,
 * and production runs that with plain node.
 *  - dist/server/server/src/main.js, started by node alone in production (from a directory of its
 *    own, with a throw-away database), migrates, answers /healthz and /readyz, and serves real calls
 *    (register, log in, the logged-in user); no tsx anywhere in the process (argv, NODE_OPTIONS);
 *  - the PDF engine, an .mjs script the server starts from beside its own file, draws a page from the
 *    compiled copy;
 *  - `NODE_ENV=production npm start` (scripts/start.js) runs the compiled code, workers included
 *    (WORKERS=2 on PostgreSQL), and stops cleanly on SIGTERM; a server killed by a signal is a failure
 *    of npm start (137 for SIGKILL), not a clean exit;
 *  - a build whose sources changed, or that is missing, is made again by `npm start`'s check.
 * The build script runs in a child process (esbuild's API refuses to load under Jest's environment).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PDFDocument, rgb } from 'pdf-lib'
import { DEMO_LOGINS } from '../../../server/src/seed'
import { testDialects } from '../support/db'
import { call, newStore, ok, type Store } from '../support/server-process'
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { freePort } = require('../../support/processes') as { freePort: () => Promise<number> }

const ROOT = path.resolve(__dirname, '../../..')
const OUT = path.join(ROOT, 'dist', 'server')
const MAIN = path.join(OUT, 'server', 'src', 'main.js')

/** An environment of only PATH, HOME and `extra`: nothing of the test runner's (NODE_OPTIONS included). */
function bareEnv (extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // (the app's types/global.d.ts declares TARO_ENV on every ProcessEnv: a server's environment has none)
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...extra } as unknown as NodeJS.ProcessEnv
}

/** Runs a piece of plain node (CommonJS) in the repository; answers what it printed as JSON. */
function node (code: string, input?: Buffer): any {
  const r = spawnSync(process.execPath, ['-e', code], { cwd: ROOT, input, encoding: 'utf8', env: bareEnv() })
  if (r.status !== 0) throw new Error(`node -e failed (${r.status}):\n${r.stderr}`)
  return JSON.parse(r.stdout)
}

/** The command line of a live process, as its argv (Linux /proc); [] for one gone meanwhile. */
function argvOf (pid: number): string[] {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
  } catch {
    return []
  }
}

/** A process and every process under it (Linux: /proc/<pid>/stat's parent). */
function processTree (pid: number): number[] {
  const parents = new Map<number, number>()
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^[0-9]+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z') parents.set(Number(entry), Number(fields[1]))
    } catch { /* gone meanwhile */ }
  }
  const tree = [pid]
  for (let i = 0; i < tree.length; i++) for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child)
  return tree
}

/**
 * How tsx is involved in a process, if it is: tsx runs TypeScript as its own command, as a loader
 * (--import/--require tsx) or through NODE_OPTIONS; each would show in the argv or the environment.
 */
function tsxIn (pid: number): string[] {
  const found = argvOf(pid).filter(a => /tsx/.test(a)).map(a => `argv: ${a}`)
  let env: string[] = []
  try { env = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0') } catch { /* gone meanwhile */ }
  for (const v of env) if (/^NODE_OPTIONS=.*tsx/.test(v)) found.push(v)
  return found
}

async function untilUp (origin: string, child: ChildProcess, output: () => string, ms = 30000): Promise<void> {
  const end = Date.now() + ms
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output()}`)
    try {
      const res = await fetch(`${origin}/dev-api/healthz`, { signal: AbortSignal.timeout(2000) })
      if (res.status === 200) return
    } catch { /* not listening yet */ }
    if (Date.now() > end) throw new Error(`no /healthz within ${ms} ms:\n${output()}`)
    await new Promise(r => setTimeout(r, 100))
  }
}

/** Register, log in again by password, and read the logged-in user: a real round trip through the database. */
async function accountRoundTrip (origin: string, userName: string): Promise<void> {
  const made = await ok(call(origin, 'POST', '/login/register?table=user', { user_name: userName, password: 'compiled-pw' }), 'register')
  expect(made.user.userName).toBe(userName)
  const again = await ok(call(origin, 'POST', '/login/passwd', { user_name: userName, password: 'compiled-pw' }), 'login')
  expect(again.user.id).toBe(made.user.id)
  const me = await ok(call(origin, 'GET', '/getUserInfo', undefined, again.token), 'getUserInfo')
  expect(me).toMatchObject({ id: made.user.id, userName })
  const wrong = await call(origin, 'POST', '/login/passwd', { user_name: userName, password: 'not-the-pw' })
  expect(wrong.body?.code).toBe(401)
}

function stopped (child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode)
  return new Promise(resolve => child.once('exit', code => resolve(code)))
}

beforeAll(() => {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'build-server.js')], { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`npm run build:server failed:\n${r.stdout}\n${r.stderr}`)
  expect(r.stdout).toMatch(/^Compiled \d+ files .* node dist\/server\/server\/src\/main\.js$/m)
}, 60000)

test('the build mirrors the sources: a .js and a source map per .ts of server/src and types/, every other file of server/src copied, a stamp', () => {
  const sources = (dir: string): string[] => fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap(e =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.isFile() ? [path.join(dir, e.name)] : [])
  const server = sources('server/src')
  const types = sources('types').filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  expect(server.filter(f => f.endsWith('.mjs')).length).toBeGreaterThanOrEqual(2)
  for (const f of [...server, ...types]) {
    if (f.endsWith('.ts')) {
      const js = path.join(OUT, f.replace(/\.ts$/, '.js'))
      expect({ f, js: fs.existsSync(js), map: fs.existsSync(`${js}.map`) }).toEqual({ f, js: true, map: true })
    } else {
      expect({ f, same: fs.readFileSync(path.join(OUT, f)).equals(fs.readFileSync(path.join(ROOT, f))) }).toEqual({ f, same: true })
    }
  }
  expect(JSON.parse(fs.readFileSync(path.join(OUT, 'package.json'), 'utf8')).type).toBe('commonjs')
  const stamp = JSON.parse(fs.readFileSync(path.join(OUT, 'BUILD.json'), 'utf8'))
  expect(stamp).toMatchObject({ main: 'server/src/main.js', compiled: server.filter(f => f.endsWith('.ts')).length + types.length })
  expect(stamp.hash).toMatch(/^[0-9a-f]{64}$/)
})

test('the tsx detector sees tsx as a loader (so its silence below means something)', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', '-e', 'setTimeout(() => {}, 20000)'], { cwd: ROOT, stdio: 'ignore' })
  try {
    await new Promise(r => setTimeout(r, 300))
    expect(tsxIn(child.pid!)).toEqual(['argv: tsx'])
  } finally {
    child.kill('SIGKILL')
  }
})

test('node dist/server/server/src/main.js in production: migrates, answers /healthz and /readyz and real calls, with no tsx', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-compiled-'))
  const port = await freePort()
  const origin = `http://127.0.0.1:${port}`
  // started from its data directory, with only what production needs: no .env of the repository, no NODE_OPTIONS
  const child = spawn(process.execPath, [MAIN], {
    cwd: dataDir,
    env: bareEnv({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, STATIC_DIR: path.join(dataDir, 'no-h5'), LOG_LEVEL: 'warn' }),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout!.on('data', d => { output += d })
  child.stderr!.on('data', d => { output += d })
  try {
    await untilUp(origin, child, () => output)
    expect(argvOf(child.pid!)).toEqual([process.execPath, MAIN])
    expect(processTree(child.pid!).flatMap(tsxIn)).toEqual([])

    const ready = await fetch(`${origin}/dev-api/readyz`)
    expect(ready.status).toBe(200)
    const body = await ready.json() as { data: { ready: boolean; migrations: { applied: number; known: number } } }
    expect(body.data.ready).toBe(true)
    expect(body.data.migrations.applied).toBe(body.data.migrations.known)
    expect(body.data.migrations.known).toBeGreaterThan(20)
    expect(ready.headers.get('x-request-id')).toBeTruthy()

    await accountRoundTrip(origin, 'compiled_node')
    // production: no demo accounts were seeded
    const demo = await call(origin, 'POST', '/login/passwd', { user_name: DEMO_LOGINS[0].userName, password: DEMO_LOGINS[0].password })
    expect(demo.body?.code).toBe(401)
    expect(fs.existsSync(path.join(dataDir, 'shop.sqlite'))).toBe(true)
  } finally {
    child.kill('SIGTERM')
    expect(await stopped(child)).toBe(0)
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}, 60000)

test('the PDF engine draws a page from the compiled copy (its .mjs script is found beside the compiled engine)', async () => {
  const doc = await PDFDocument.create()
  const page = doc.addPage([200, 100])
  page.drawRectangle({ x: 0, y: 0, width: 50, height: 100, color: rgb(1, 0, 0) })
  const pdf = Buffer.from(await doc.save())
  const engine = path.join(OUT, 'server', 'src', 'engines', 'pdf.js')
  const drawn = node(`
    const { PdfjsEngine } = require(${JSON.stringify(engine)})
    const chunks = []
    process.stdin.on('data', c => chunks.push(c)).on('end', async () => {
      const pages = []
      const limits = { maxPages: 2, maxSide: 400, maxBytes: 1e6, maxImagePixels: 1e7, memoryBytes: 1024 * 1024 * 1024, timeoutMs: 30000 }
      await new PdfjsEngine().render(Buffer.concat(chunks), limits, () => {}, async p => { pages.push({ page: p.page, width: p.width, height: p.height, png: p.png.subarray(1, 4).toString() }) })
      console.log(JSON.stringify(pages))
    })`, pdf)
  expect(drawn).toHaveLength(1)
  expect(drawn[0]).toMatchObject({ page: 1, png: 'PNG' })
  expect(drawn[0].width / drawn[0].height).toBeCloseTo(2, 1)
}, 60000)

describe('NODE_ENV=production npm start', () => {
  const postgres = testDialects().includes('postgres')
  const workers = postgres ? 2 : 1
  let store: Store

  beforeAll(async () => { store = await newStore(postgres ? 'postgres' : 'sqlite') })
  afterAll(async () => { await store?.drop() })

  test(`runs the compiled server with plain node${postgres ? ', its WORKERS=2 API processes too' : ''}, and stops on SIGTERM`, async () => {
    const port = await freePort()
    const origin = `http://127.0.0.1:${port}`
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js')], {
      cwd: ROOT,
      env: bareEnv({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), STATIC_DIR: '/nonexistent-h5', LOG_LEVEL: 'warn', WORKERS: String(workers), ...store.env }),
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    child.stdout!.on('data', d => { output += d })
    child.stderr!.on('data', d => { output += d })
    try {
      await untilUp(origin, child, () => output)
      // the banner comes once every API process listens
      const end = Date.now() + 30000
      while (!output.includes('Blind-box shop listening') && Date.now() < end) await new Promise(r => setTimeout(r, 100))
      expect(output).toContain(workers > 1 ? `${workers} API processes` : 'Blind-box shop listening')
      expect(output).not.toContain('Compiling the server') // the build of beforeAll is current

      const tree = processTree(child.pid!)
      // node processes: start.js, then the server (with WORKERS=2, a primary and its two workers), each
      // as plain `node <file>` (an engine's probe, e.g. tesseract --list-langs, may come and go beside them)
      const nodes = tree.map(argvOf).filter(argv => argv[0] === process.execPath)
      expect(nodes).toEqual([[process.execPath, path.join(ROOT, 'scripts', 'start.js')], ...Array(workers > 1 ? 1 + workers : 1).fill([process.execPath, MAIN])])
      expect(tree.flatMap(tsxIn)).toEqual([])

      await accountRoundTrip(origin, `compiled_start_${workers}`)
      const healthy = await Promise.all(Array.from({ length: 12 }, () => fetch(`${origin}/dev-api/healthz`).then(r => r.status)))
      expect(healthy.every(s => s === 200)).toBe(true)
    } finally {
      child.kill('SIGTERM')
      expect(await stopped(child)).toBe(0)
    }
  }, 90000)
})

test('npm start reports a server killed by a signal as a failure (137 for SIGKILL), so a supervisor restarts it', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-compiled-kill-'))
  const port = await freePort()
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts', 'start.js')], {
    cwd: ROOT,
    env: bareEnv({ NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), STATIC_DIR: '/nonexistent-h5', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DATABASE_URL: '' }),
    stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout!.on('data', d => { output += d })
  child.stderr!.on('data', d => { output += d })
  try {
    await untilUp(`http://127.0.0.1:${port}`, child, () => output)
    const server = processTree(child.pid!).find(pid => argvOf(pid)[1] === MAIN)
    expect(server).toBeDefined()
    process.kill(server!, 'SIGKILL')
    expect(await stopped(child)).toBe(137)
  } finally {
    child.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}, 60000)

test('a build whose sources changed, or that is missing, is made again; a current one is kept', () => {
  const outDir = path.join(ROOT, 'dist', `server-check-${process.pid}`)
  const script = path.join(ROOT, 'scripts', 'build-server.js')
  const run = (body: string) => node(`const b = require(${JSON.stringify(script)}); const outDir = ${JSON.stringify(outDir)}; ${body}`)
  try {
    expect(run('console.log(JSON.stringify(b.serverBuildState({ outDir }).state))')).toBe('missing')
    run('b.ensureServerBuilt({ outDir, log: () => {} }); console.log(JSON.stringify(b.serverBuildState({ outDir }).state))')
    expect(run('console.log(JSON.stringify(b.serverBuildState({ outDir }).state))')).toBe('fresh')
    const stampFile = path.join(outDir, 'BUILD.json')
    const first = JSON.parse(fs.readFileSync(stampFile, 'utf8'))

    // a current build is not made again
    const logged = run('const said = []; b.ensureServerBuilt({ outDir, log: m => said.push(m) }); console.log(JSON.stringify(said))')
    expect(logged).toEqual([])
    expect(JSON.parse(fs.readFileSync(stampFile, 'utf8')).builtAt).toBe(first.builtAt)

    // built from other sources (as after a git pull): stale, and made again
    fs.writeFileSync(stampFile, JSON.stringify({ ...first, hash: '0'.repeat(64) }))
    expect(run('console.log(JSON.stringify(b.serverBuildState({ outDir }).state))')).toBe('stale')
    expect(run('const said = []; b.ensureServerBuilt({ outDir, log: m => said.push(m) }); console.log(JSON.stringify(said))'))
      .toEqual(['Compiling the server (its sources changed since the last build)…'])
    expect(JSON.parse(fs.readFileSync(stampFile, 'utf8')).hash).toBe(first.hash)

    // an entry gone: missing, and made again
    fs.rmSync(path.join(outDir, 'server', 'src', 'main.js'))
    expect(run('console.log(JSON.stringify(b.serverBuildState({ outDir }).state))')).toBe('missing')
    run('b.ensureServerBuilt({ outDir, log: () => {} }); console.log(1)')
    expect(fs.existsSync(path.join(outDir, 'server', 'src', 'main.js'))).toBe(true)
    // nothing of the swap is left beside it
    expect(fs.readdirSync(path.dirname(outDir)).filter(f => f.startsWith(`server-check-${process.pid}.`))).toEqual([])
  } finally {
    fs.rmSync(outDir, { recursive: true, force: true })
  }
}, 60000)

test('the Node versions that run it: require() of ES modules (typebox ships only those) from 20.19 and 22.12', () => {
  const verdicts = node('const { nodeRunsCompiledServer: f } = require(\'./scripts/build-server\'); console.log(JSON.stringify([\'20.18.1\', \'20.19.0\', \'21.7.0\', \'22.11.0\', \'22.12.0\', \'24.1.0\'].map(v => f(v))))')
  expect(verdicts).toEqual([false, true, false, false, true, true])
  expect(node('console.log(JSON.stringify(require("./scripts/build-server").nodeRunsCompiledServer()))')).toBe(true)
})
