#!/usr/bin/env node
/**
 * `npm run build:server`: the API server compiled to JavaScript, for production (`NODE_ENV=production
 * npm start` runs it with plain node; tsx is for development).
 *
 * Every TypeScript file of server/src and types/ is compiled on its own (esbuild, CommonJS, Node 20;
 * nothing is bundled) into dist/server/, keeping the repository's layout, so that the paths the server
 * works out from its own location (the engine scripts next to engines/pdf.ts and providers/ocr.ts) and
 * its imports of ../types hold in the compiled copy too:
 *
 *   dist/server/server/src/main.js     the entry (node dist/server/server/src/main.js)
 *   dist/server/server/src/...         the server, one .js (+ .js.map) per .ts, and every other file of
 *                                      server/src as it is (the .mjs engine scripts)
 *   dist/server/types/...              the API contract's schemas
 *   dist/server/package.json           {"type": "commonjs"}
 *   dist/server/BUILD.json             what it was built from: a hash of the sources, the esbuild version
 *
 * Packages are not copied: the compiled files find them in the repository's node_modules, so the
 * output works where it was built (it is not a deployable bundle on its own).
 *
 * Type checking is not done here (`tsc --noEmit -p server/tsconfig.json` does it, in CI); server/
 * tsconfig.json's isolatedModules makes compiling one file at a time safe. esbuild is the one tsx runs
 * the server with in development (tsx is a dependency), so both ways compile the code alike.
 *
 *   node scripts/build-server.js             build
 *   node scripts/build-server.js --if-stale  build only when dist/server is missing or older than the sources
 *   node scripts/build-server.js --out dist/server-test   into another directory (the server tests' copy)
 */
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..')
const OUT_DIR = path.join(ROOT, 'dist', 'server')
/** The entry, relative to the output directory. */
const MAIN = path.join('server', 'src', 'main.js')
const STAMP = 'BUILD.json'
const TSCONFIG = path.join(ROOT, 'server', 'tsconfig.json')
/** What is compiled: every file of server/src (TypeScript compiled, the rest copied) and the .ts of types/. */
const SERVER_SRC = path.join(ROOT, 'server', 'src')
const TYPES = path.join(ROOT, 'types')

/** The esbuild that tsx uses (tsx is a dependency, so it is there in a production install too). */
function loadEsbuild () {
  const tsxDir = path.dirname(require.resolve('tsx/package.json', { paths: [ROOT] }))
  return require(require.resolve('esbuild', { paths: [tsxDir] }))
}

function * walk (dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) yield * walk(p)
    else if (entry.isFile()) yield p
  }
}

const isTs = f => f.endsWith('.ts') && !f.endsWith('.d.ts')

/** The inputs, sorted: { compile: .ts files, copy: other files of server/src }, absolute paths. */
function inputs () {
  const compile = []
  const copy = []
  for (const f of walk(SERVER_SRC)) {
    if (isTs(f)) compile.push(f)
    else if (!f.endsWith('.d.ts')) copy.push(f)
  }
  for (const f of walk(TYPES)) if (isTs(f)) compile.push(f)
  return { compile: compile.sort(), copy: copy.sort() }
}

/**
 * A hash of everything the output depends on: the sources (names and bytes), the tsconfig, this
 * script and the esbuild version. A build whose stamp holds another hash is stale.
 */
function sourceHash (esbuildVersion, files = inputs()) {
  const h = crypto.createHash('sha256')
  h.update(`esbuild ${esbuildVersion}\0`)
  for (const f of [...files.compile, ...files.copy, TSCONFIG, __filename]) {
    h.update(path.relative(ROOT, f) + '\0')
    h.update(fs.readFileSync(f))
    h.update('\0')
  }
  return h.digest('hex')
}

/** Compiles the server into `outDir` (default dist/server), replacing what was there; answers a summary. */
function buildServer ({ outDir = OUT_DIR } = {}) {
  const t0 = Date.now()
  const esbuild = loadEsbuild()
  const files = inputs()
  const hash = sourceHash(esbuild.version, files)
  // built beside the target and swapped in at the end: a server running from the old copy, or a
  // build that fails half way, never sees a half-written directory
  const tmp = `${outDir}.tmp-${process.pid}-${Date.now()}`
  fs.mkdirSync(path.dirname(outDir), { recursive: true })
  try {
    esbuild.buildSync({
      entryPoints: files.compile,
      outdir: tmp,
      outbase: ROOT,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      tsconfig: TSCONFIG,
      sourcemap: 'linked',
      sourcesContent: false,
      logLevel: 'silent'
    })
    for (const f of files.copy) {
      const to = path.join(tmp, path.relative(ROOT, f))
      fs.mkdirSync(path.dirname(to), { recursive: true })
      fs.copyFileSync(f, to)
    }
    fs.writeFileSync(path.join(tmp, 'package.json'), JSON.stringify({ private: true, type: 'commonjs' }, null, 2) + '\n')
    const stamp = { hash, esbuild: esbuild.version, builtAt: new Date().toISOString(), compiled: files.compile.length, copied: files.copy.length, main: MAIN }
    fs.writeFileSync(path.join(tmp, STAMP), JSON.stringify(stamp, null, 2) + '\n')
    const old = `${outDir}.old-${process.pid}-${Date.now()}`
    try { fs.renameSync(outDir, old) } catch (err) { if (err.code !== 'ENOENT') throw err }
    try {
      fs.renameSync(tmp, outDir)
    } catch (err) {
      // another build of the same sources landed in between (two starts at once): keep that one
      if ((err.code !== 'ENOTEMPTY' && err.code !== 'EEXIST') || readStamp(outDir)?.hash !== hash) throw err
      fs.rmSync(tmp, { recursive: true, force: true })
    }
    fs.rmSync(old, { recursive: true, force: true })
    return { ...stamp, outDir, main: path.join(outDir, MAIN), ms: Date.now() - t0 }
  } catch (err) {
    fs.rmSync(tmp, { recursive: true, force: true })
    if (err.errors?.length) {
      // esbuild's own report: file, line and what is wrong
      const lines = err.errors.map(e => `${e.location ? `${path.relative(ROOT, e.location.file)}:${e.location.line}:${e.location.column}: ` : ''}${e.text}`)
      throw new Error(`the server does not compile:\n${lines.join('\n')}`)
    }
    throw err
  }
}

function readStamp (outDir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(outDir, STAMP), 'utf8'))
  } catch {
    return null
  }
}

/** Whether `outDir` holds a build of the current sources: { state: 'fresh' | 'stale' | 'missing', main }. */
function serverBuildState ({ outDir = OUT_DIR } = {}) {
  const main = path.join(outDir, MAIN)
  const stamp = readStamp(outDir)
  if (!stamp || !fs.existsSync(main)) return { state: 'missing', main }
  return { state: stamp.hash === sourceHash(loadEsbuild().version) ? 'fresh' : 'stale', main }
}

/** Builds when the output is missing or stale; answers the entry's path. */
function ensureServerBuilt ({ outDir = OUT_DIR, log = console.log } = {}) {
  const { state, main } = serverBuildState({ outDir })
  if (state === 'fresh') return main
  log(state === 'missing' ? 'Compiling the server (first production start)…' : 'Compiling the server (its sources changed since the last build)…')
  return buildServer({ outDir }).main
}

/**
 * The compiled server is CommonJS and requires packages that ship ES modules only (typebox), which
 * Node loads through require() from 20.19 and 22.12 on.
 */
function nodeRunsCompiledServer (version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number)
  return major >= 23 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19)
}

module.exports = { OUT_DIR, MAIN, buildServer, serverBuildState, ensureServerBuilt, nodeRunsCompiledServer }

if (require.main === module) {
  try {
    const ifStale = process.argv.includes('--if-stale')
    // --out <dir>: another output directory inside the repository (its node_modules must be above it);
    // the server tests build theirs apart, so a rebuild of dist/server never pulls files from under them
    const outAt = process.argv.indexOf('--out')
    const outDir = outAt > 0 ? path.resolve(ROOT, process.argv[outAt + 1] ?? '') : OUT_DIR
    if (path.relative(ROOT, outDir).startsWith('..') || outDir === ROOT) throw new Error(`--out must name a directory inside ${ROOT}`)
    const state = ifStale ? serverBuildState({ outDir }).state : 'forced'
    if (state === 'fresh') {
      console.log(`${path.relative(ROOT, outDir)} is up to date (${path.relative(ROOT, path.join(outDir, MAIN))})`)
    } else {
      const r = buildServer({ outDir })
      console.log(`Compiled ${r.compiled} files (and copied ${r.copied}) in ${r.ms} ms with esbuild ${r.esbuild}: node ${path.relative(ROOT, r.main)}`)
    }
  } catch (err) {
    console.error(err.message)
    process.exit(1)
  }
}
