/**
 * Staged start of the H5 app (issue 12, total blocking time).
 *
 * Taro generates the H5 entry (app.config → @tarojs/taro-loader/lib/h5) as one module of static
 * imports followed by the app's creation. Evaluating it runs every module of the app's start (Taro's
 * APIs and router, React DOM, MobX, the stores, the dictionaries, the request client) and then creates
 * and mounts the app, all in one task: about 70 ms of CPU on this machine, 280 ms at Lighthouse's 4x
 * slowdown, nearly all of it counted as blocking time, because the prerendered page has already
 * painted.
 *
 * This loader runs on the code Taro generated and turns its static imports into eager dynamic imports
 * (same chunk, no extra request), evaluated one after another in the same order, each in a task of its
 * own (a MessageChannel message between them, which is not throttled like a timer). Some plain
 * libraries get steps of their own first (the `prewarm` option), since otherwise they would be
 * evaluated inside the step of whichever import needs them first. Likewise the heavier modules of the
 * app's own start get steps of their own right before the app's module (the `beforeApp` option): the
 * app's module imports them, so they would otherwise run in its step. They come after Taro's imports,
 * which they need. The app is then created exactly as Taro wrote it; in the next task the history and
 * the app's container are made, and in the one after the router (which mounts the first page).
 * Each step is measured (`performance.measure`, named `boot:<module>`), so DevTools and
 * bench/boot-tasks.js show what each costs.
 *
 * The generated code uses promise chains, not async functions, so Babel adds no generator runtime.
 * `webpackExports` tells webpack which exports each import uses, as the static import did, so unused
 * exports are still tree-shaken (Taro's component barrel would otherwise bring every component).
 * An error in a step is rethrown outside the promise chain, so the error reporter sees it as before.
 *
 * Page mounts are React transitions: the app's `mount` (what Taro's router calls for each page) runs
 * inside `React.startTransition`, so React renders the page in slices of about 5 ms with the
 * browser's turn between them, where Taro's plain `forceUpdate` rendered it in the task that mounts
 * it. (Most of that task at 4x slowdown, 200-250 ms on home, was fetching and compiling the page's
 * chunks; scripts/prerender.js now fetches them with the entry.) The commit stays one step, so a page
 * still appears whole, and the mount's callback still runs after it.
 *
 * Only the H5 build uses it (config/index.ts); the mini-program starts differently.
 */
const path = require('node:path')

const LOADER = __filename
const TARO_H5_LOADER = /[\\/]@tarojs[\\/]taro-loader[\\/]lib[\\/]h5(\.js)?$/
/**
 * Imports left static: Taro's runtime is needed by everything and evaluated first anyway, and a
 * dynamic import of its entry would keep its whole DOM implementation (unused on H5) in the bundle,
 * where the static import lets webpack take only what is used.
 */
const STATIC = new Set(['@tarojs/runtime'])

// import 'x' | import X from 'x' | import * as X from 'x' | import { a, b as c } from 'x' | import X, { a } from 'x'
const IMPORT = /^import\s+(?:(?<what>[^'"]+?)\s+from\s+)?(?<src>'[^']*'|"[^"]*")\s*;?\s*$/
const IDENT = /^[A-Za-z_$][\w$]*$/

function ident (name, clause) {
  if (!IDENT.test(name)) throw new Error(`staged-boot: cannot read the import clause "${clause}"`)
  return name
}

/**
 * One import clause as a step: the names it binds (declared by the caller), the exports it uses and
 * the statements that assign the bindings from the module's namespace `ns`.
 */
function readClause (what) {
  if (!what) return { names: [], used: [], assign: '' }
  const clause = what.trim()
  const named = list => list.split(',').map(s => s.trim()).filter(Boolean).map(s => {
    const [exported, local = exported] = s.split(/\s+as\s+/)
    return { exported: ident(exported, clause), local: ident(local, clause) }
  })
  let m
  if ((m = /^\*\s+as\s+(\S+)$/.exec(clause))) return { names: [ident(m[1], clause)], used: null, assign: `${m[1]} = ns;` }
  let parts = []
  if ((m = /^\{([^}]*)\}$/.exec(clause))) parts = named(m[1])
  else if ((m = /^([\w$]+)\s*,\s*\{([^}]*)\}$/.exec(clause))) parts = [{ exported: 'default', local: ident(m[1], clause) }, ...named(m[2])]
  else if ((m = /^([\w$]+)$/.exec(clause))) parts = [{ exported: 'default', local: ident(m[1], clause) }]
  else throw new Error(`staged-boot: cannot read the import clause "${clause}"`)
  return {
    names: parts.map(p => p.local),
    used: [...new Set(parts.map(p => p.exported))],
    assign: parts.map(p => `${p.local} = ns[${JSON.stringify(p.exported)}];`).join(' ')
  }
}

/**
 * The entry code with its imports staged, or null when it is not the shape of Taro's H5 app entry
 * (then it is left as generated, with a build warning).
 */
function stage (code, prewarm = [], beforeApp = []) {
  const statics = []
  const steps = []
  const body = []
  for (const line of String(code).split('\n')) {
    const m = IMPORT.exec(line.trim())
    if (!m) { body.push(line); continue }
    if (body.some(l => l.trim() !== '')) throw new Error(`staged-boot: an import after code: ${line}`)
    if (STATIC.has(m.groups.src.slice(1, -1))) { statics.push(line); continue }
    steps.push({ src: m.groups.src, label: m.groups.src.slice(1, -1).split('!').pop().replace(/^.*node_modules[\\/]/, ''), ...readClause(m.groups.what) })
  }
  const rest = body.join('\n')
  if (!steps.length || /^\s*export\b/m.test(rest) || !/^var history = /m.test(rest)) return null
  const plain = name => ({ src: JSON.stringify(name), label: name, names: [], used: [], assign: '' })
  steps.unshift(...prewarm.map(plain))
  if (beforeApp.length) {
    // Taro's entry imports the app's component as `component`
    const app = steps.findIndex(s => s.names.includes('component'))
    if (app < 0) throw new Error('staged-boot: no import of the app\'s component to put the beforeApp steps before')
    steps.splice(app, 0, ...beforeApp.map(plain))
  }

  const names = [...new Set(steps.flatMap(s => s.names))]
  const load = s => `import(/* webpackMode: "eager" */${s.used ? ` /* webpackExports: ${JSON.stringify(s.used)} */` : ''} ${s.src})`
  const [create, mountAll] = rest.split(/^(?=var history = )/m)
  // the router in a task of its own, after the history and the app's container (one step of 30-50 ms
  // at 1x on the AMD EPYC machine, two at 4x slowdown)
  const [mountPart, route = ''] = mountAll.split(/^(?=createRouter\()/m)
  // its history is then declared in the app's function, where both steps see it
  const mount = route ? mountPart.replace(/^var history = /m, 'history = ') : mountPart
  return `${statics.join('\n')}
var __bootStart = 0
function __bootMeasure (what) {
  if (typeof performance === 'undefined' || !performance.measure) return
  try { performance.measure('boot:' + what, { start: __bootStart }) } catch (e) {}
}
function __bootYield () {
  return new Promise(function (resolve) {
    var channel = new MessageChannel()
    channel.port1.onmessage = function () { channel.port1.close(); __bootStart = performance.now(); resolve() }
    channel.port2.postMessage(null)
  })
}
${names.length ? `var ${names.join(', ')}\n` : ''}var __bootSteps = [
${steps.map(s => `  function () { return ${load(s)}.then(function (ns) { ${s.assign} __bootMeasure(${JSON.stringify(s.label)}) }) }`).join(',\n')}
]
function __bootTransitions (app, R) {
  if (!app || typeof app.mount !== 'function' || !R || typeof R.startTransition !== 'function') return
  var mount = app.mount
  app.mount = function () {
    var self = this
    var args = arguments
    R.startTransition(function () { mount.apply(self, args) })
  }
}
function __bootApp () {
${create}
__bootTransitions(typeof inst === 'undefined' ? null : inst, typeof React === 'undefined' ? null : React)
__bootMeasure('app created')
${route ? 'var history\n' : ''}return __bootYield().then(function () {
${route ? `${mount}
__bootMeasure('history created')
return __bootYield()
}).then(function () {
${route}` : mount}
__bootMeasure('router created')
})
}
function __bootRun (i) {
  if (i === __bootSteps.length) return __bootApp()
  return __bootSteps[i]().then(__bootYield).then(function () { return __bootRun(i + 1) })
}
__bootStart = typeof performance === 'undefined' ? 0 : performance.now()
__bootRun(0).catch(function (error) { setTimeout(function () { throw error }) })
`
}

function stagedBootLoader (source) {
  const { prewarm, beforeApp } = this.getOptions()
  const staged = stage(source, prewarm, beforeApp)
  if (staged === null) this.emitWarning(new Error('staged-boot: the H5 entry is not in the expected shape; left as generated'))
  return staged ?? source
}

/**
 * Puts the loader right after Taro's H5 entry loader (loaders run last to first, so it goes before it
 * in the list). Registered after Taro's own plugin, which adds that loader in the same hook.
 */
class StagedBootPlugin {
  /** @param {{ prewarm?: string[], beforeApp?: string[] }} options */
  constructor (options = {}) {
    this.prewarm = options.prewarm ?? []
    this.beforeApp = options.beforeApp ?? []
  }

  apply (compiler) {
    compiler.hooks.compilation.tap('staged-boot', compilation => {
      compiler.webpack.NormalModule.getCompilationHooks(compilation).loader.tap('staged-boot', (_ctx, module) => {
        const i = module.loaders.findIndex(l => TARO_H5_LOADER.test(l.loader))
        if (i < 0 || path.parse(module.resource).name !== 'app.config') return
        if (module.loaders.some(l => l.loader === LOADER)) return
        module.loaders.splice(i, 0, { loader: LOADER, options: { prewarm: this.prewarm, beforeApp: this.beforeApp }, ident: null, type: null })
      })
    })
  }
}

module.exports = stagedBootLoader
module.exports.stage = stage
module.exports.StagedBootPlugin = StagedBootPlugin
