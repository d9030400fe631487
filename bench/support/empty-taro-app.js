/**
 * The reference of the H5 benchmarks: an empty Taro app with Taro's defaults, made and built in the
 * same run as the measurement.
 *
 * It is scaffolded from the template that ships inside @tarojs/cli (templates/default, React +
 * TypeScript + Sass + webpack5, the answers `taro init` offers first), rendered by Taro's own creator
 * (@tarojs/binding's createProject), with two changes only: the `@tarojs/plugin-generator` CLI plugin
 * the template lists is dropped (it adds `taro new` commands, not build output, and is not published
 * for this Taro version), and the project uses this repository's node_modules (same Taro, React and
 * webpack versions as the shop). Then `taro build --type h5` in production mode, and brotli and gzip
 * copies as the shop's server expects of any build (scripts/precompress.js).
 */
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..', '..')

function run (cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts })
    let out = ''
    child.stdout.on('data', d => { out += d })
    child.stderr.on('data', d => { out += d })
    child.on('error', reject)
    child.on('exit', code => code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}\n${out.slice(-3000)}`)))
  })
}

/** Scaffolds the empty app under `dir` (which must exist) and answers the project's directory. */
async function scaffoldEmptyApp (dir) {
  const { createProject } = require(require.resolve('@tarojs/binding', { paths: [ROOT] }))
  const cliRoot = path.dirname(require.resolve('@tarojs/cli/package.json', { paths: [ROOT] }))
  const template = path.join(cliRoot, 'templates', 'default')
  const { handler } = require(path.join(template, 'template_creator.js'))
  const name = 'empty-taro-app'
  const quiet = console.log
  console.log = () => {} // the creator narrates every file it writes
  try {
    await createProject({
      projectRoot: dir,
      projectName: name,
      description: 'An empty Taro app, the reference of bench/',
      template: 'default',
      npm: 'Npm',
      framework: 'React',
      css: 'Sass',
      compiler: 'Webpack5',
      typescript: true,
      buildEs5: false,
      autoInstall: false,
      templateRoot: cliRoot,
      version: require(path.join(cliRoot, 'package.json')).version,
      date: new Date().toISOString().slice(0, 10),
      period: 'CreateAPP'
    }, handler)
  } finally {
    console.log = quiet
  }
  const project = path.join(dir, name)
  const configFile = path.join(project, 'config', 'index.ts')
  const config = fs.readFileSync(configFile, 'utf8')
  const withoutGenerator = config.replace(/["']@tarojs\/plugin-generator["']/, '')
  if (withoutGenerator === config && /plugin-generator/.test(config)) throw new Error('could not drop @tarojs/plugin-generator from the template config')
  fs.writeFileSync(configFile, withoutGenerator)
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(project, 'node_modules'), 'dir')
  return project
}

/** Scaffolds and builds the empty app under `dir`; answers the directory of its H5 build. */
async function buildEmptyApp (dir) {
  const project = await scaffoldEmptyApp(dir)
  const env = { ...process.env, NODE_ENV: 'production' }
  for (const k of Object.keys(env)) if (k.startsWith('TARO_')) delete env[k]
  await run(path.join(ROOT, 'node_modules', '.bin', 'taro'), ['build', '--type', 'h5'], { cwd: project, env })
  const dist = path.join(project, 'dist')
  if (!fs.existsSync(path.join(dist, 'index.html'))) throw new Error(`the empty app's build has no index.html in ${dist}`)
  require('../../scripts/precompress').precompressDir(dist)
  return dist
}

module.exports = { scaffoldEmptyApp, buildEmptyApp, run }
