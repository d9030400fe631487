#!/usr/bin/env node
/**
 * dist/weapp as WeChat's own tools see it (issue 22, "WeChat's own compiler"):
 *
 * 1. Configuration: app.json and every page's and component's .json against schemas written from
 *    WeChat's documented fields (TypeBox, checked with Value.Errors):
 *    - app.json: https://developers.weixin.qq.com/miniprogram/dev/reference/configuration/app.html
 *    - pages: https://developers.weixin.qq.com/miniprogram/dev/reference/configuration/page.html
 *    - components: https://developers.weixin.qq.com/miniprogram/dev/framework/custom-component/
 *    Unknown fields, wrong types, pages listed without their .js/.json/.wxml, subpackage roots that do
 *    not exist, requiredPrivateInfos outside WeChat's list, a permission without its desc, and
 *    usingComponents paths that resolve to no component are each reported as file, field, why.
 * 2. miniprogram-ci's code-quality check (checkCodeQuality: the checks DevTools runs before upload:
 *    package sizes, compression, lazy code loading, code only another package uses, unused files),
 *    which works offline. Every failed check fails this script.
 *
 * What miniprogram-ci cannot do from here: its compile (getCompiledResult, ES6 to ES5 and WXSS as
 * DevTools does) first signs the project with WeChat's servers, and from this machine answered, with
 * appid touristappid and a throwaway key:
 *   CodeError: Error: getaddrinfo ENOTFOUND servicewechat.com   (code 20001, in utils/sign.js getRandomString)
 * preview and upload need a real app id, its upload key and WeChat's servers as well.
 *
 * Usage: node scripts/check-weapp-wechat.js [distDir]   (SKIP_CODE_QUALITY=1 skips part 2)
 */
const fs = require('node:fs')
const path = require('node:path')
const { Type } = require('@sinclair/typebox')
const { Value } = require('@sinclair/typebox/value')

const Color = Type.String({ pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$' })
const Bool = Type.Boolean()
const Str = Type.String()
const Strict = (props) => Type.Object(props, { additionalProperties: false })
const Part = (props) => Type.Partial(Strict(props))
const UsingComponents = Type.Record(Type.String(), Type.String())

/** The window settings, shared by app.json's window and each page's json. */
const windowFields = {
  navigationBarBackgroundColor: Color,
  navigationBarTextStyle: Type.Union([Type.Literal('black'), Type.Literal('white')]),
  navigationBarTitleText: Str,
  navigationStyle: Type.Union([Type.Literal('default'), Type.Literal('custom')]),
  homeButton: Bool,
  backgroundColor: Color,
  backgroundTextStyle: Type.Union([Type.Literal('dark'), Type.Literal('light')]),
  backgroundColorTop: Color,
  backgroundColorBottom: Color,
  enablePullDownRefresh: Bool,
  onReachBottomDistance: Type.Number({ minimum: 0 }),
  pageOrientation: Type.Union([Type.Literal('portrait'), Type.Literal('landscape'), Type.Literal('auto')]),
  restartStrategy: Type.Union([Type.Literal('homePage'), Type.Literal('homePageAndLatestPage')]),
  initialRenderingCache: Type.Union([Type.Literal('static'), Type.Literal('dynamic')]),
  visualEffectInBackground: Type.Union([Type.Literal('none'), Type.Literal('hidden')]),
  handleWebviewPreload: Type.Union([Type.Literal('static'), Type.Literal('manual'), Type.Literal('auto')])
}

/** https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/miniprogram-intro.html (接口列表) */
const PRIVATE_INFOS = ['getFuzzyLocation', 'getLocation', 'onLocationChange', 'startLocationUpdate',
  'startLocationUpdateBackground', 'chooseLocation', 'choosePoi', 'chooseAddress']
/** https://developers.weixin.qq.com/miniprogram/dev/reference/configuration/app.html#permission */
const PERMISSION_SCOPES = ['scope.userLocation', 'scope.userFuzzyLocation', 'scope.userLocationBackground']

const Subpackage = Part({
  root: Str, name: Str, pages: Type.Array(Str), independent: Bool, plugins: Type.Record(Str, Type.Unknown()),
  entry: Str, componentFramework: Str
})

// pages is required: checked in checkConfig (a Partial keeps every error of every field in one pass)
const AppJson = Part({
  pages: Type.Array(Str, { minItems: 1 }),
  entryPagePath: Str,
  window: Part(windowFields),
  tabBar: Type.Object({ list: Type.Array(Type.Object({ pagePath: Str, text: Str }), { minItems: 2, maxItems: 5 }) }),
  networkTimeout: Part({ request: Type.Integer({ minimum: 0 }), connectSocket: Type.Integer({ minimum: 0 }), uploadFile: Type.Integer({ minimum: 0 }), downloadFile: Type.Integer({ minimum: 0 }) }),
  debug: Bool,
  functionalPages: Bool,
  subpackages: Type.Array(Subpackage),
  subPackages: Type.Array(Subpackage),
  workers: Type.Union([Str, Type.Object({ path: Str, isSubpackage: Bool })]),
  requiredBackgroundModes: Type.Array(Type.Union([Type.Literal('audio'), Type.Literal('location')])),
  requiredPrivateInfos: Type.Array(Type.Union(PRIVATE_INFOS.map(x => Type.Literal(x)))),
  plugins: Type.Record(Str, Type.Object({ version: Str, provider: Str })),
  preloadRule: Type.Record(Str, Type.Object({ packages: Type.Array(Str), network: Type.Optional(Type.Union([Type.Literal('wifi'), Type.Literal('all')])) })),
  resizable: Bool,
  usingComponents: UsingComponents,
  permission: Type.Record(Str, Type.Object({ desc: Type.String({ minLength: 1, maxLength: 30 }) }, { additionalProperties: false })),
  sitemapLocation: Str,
  style: Type.Literal('v2'),
  useExtendedLib: Type.Record(Str, Bool),
  entranceDeclare: Type.Object({}),
  darkmode: Bool,
  themeLocation: Str,
  lazyCodeLoading: Type.Literal('requiredComponents'),
  singlePage: Type.Object({ navigationBarFit: Type.Optional(Str) }),
  embeddedAppIdList: Type.Array(Str),
  halfPage: Type.Object({ firstPageNavigationStyle: Type.Optional(Str) }),
  debugOptions: Type.Object({ enableJSTrace: Type.Optional(Bool) }),
  enablePassiveEvent: Type.Union([Bool, Type.Object({})]),
  resolveAlias: Type.Record(Str, Str),
  renderer: Type.Union([Type.Literal('webview'), Type.Literal('skyline')]),
  rendererOptions: Type.Object({}),
  componentFramework: Str,
  static: Type.Array(Type.Unknown()),
  convertRpxToVw: Bool,
  // the privacy check switch of 2023 (https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/PrivacyAuthorize.html)
  __usePrivacyCheck__: Bool
})

const PageJson = Part({
  ...windowFields,
  disableScroll: Bool,
  usingComponents: UsingComponents,
  style: Type.Literal('v2'),
  singlePage: Type.Object({}),
  styleIsolation: Str,
  componentFramework: Str,
  renderer: Type.Union([Type.Literal('webview'), Type.Literal('skyline')]),
  rendererOptions: Type.Object({}),
  componentPlaceholder: Type.Record(Str, Str),
  enablePassiveEvent: Type.Union([Bool, Type.Object({})])
})

// component: true is required: checked in checkConfig
const ComponentJson = Part({
  component: Type.Literal(true),
  usingComponents: UsingComponents,
  styleIsolation: Type.Union(['isolated', 'apply-shared', 'shared', 'page-isolated', 'page-apply-shared', 'page-shared'].map(x => Type.Literal(x))),
  componentGenerics: Type.Record(Str, Type.Union([Bool, Type.Object({ default: Str })])),
  componentPlaceholder: Type.Record(Str, Str),
  componentFramework: Str,
  renderer: Type.Union([Type.Literal('webview'), Type.Literal('skyline')]),
  pureDataPattern: Str
})

function schemaProblems (schema, value, file) {
  // unknown fields are reported by name below (unknownFields); "all sub schemas" repeats its parts
  return [...Value.Errors(schema, value)]
    .filter(e => !/^Expected all sub schemas|^Unexpected property/.test(e.message))
    .map(e => `${file}: ${e.path || '(root)'}: ${e.message}`)
}

/** Unknown fields are reported by name (TypeBox's message names the object, not the field). */
function unknownFields (schemaProps, value, file, prefix = '') {
  return Object.keys(value || {}).filter(k => !(k in schemaProps)).map(k => `${file}: ${prefix}/${k}: unknown field`)
}

/** Every problem of the configuration under `dist`, one line each. */
function checkConfig (dist) {
  const out = []
  const read = (rel) => {
    try { return JSON.parse(fs.readFileSync(path.join(dist, rel), 'utf8')) } catch (e) { out.push(`${rel}: ${e.code === 'ENOENT' ? 'missing' : `not JSON (${e.message})`}`); return null }
  }
  const app = read('app.json')
  if (!app) return out
  if (!Array.isArray(app.pages) || !app.pages.length) out.push('app.json: /pages: required: the list of main-package pages')
  out.push(...schemaProblems(AppJson, app, 'app.json'))
  out.push(...unknownFields(AppJson.properties, app, 'app.json'))
  if (app.window && typeof app.window === 'object') out.push(...unknownFields(windowFields, app.window, 'app.json', '/window'))
  for (const [scope, v] of Object.entries(app.permission || {})) {
    if (!PERMISSION_SCOPES.includes(scope)) out.push(`app.json: /permission/${scope}: not one of ${PERMISSION_SCOPES.join(', ')}`)
    if (!v || typeof v.desc !== 'string' || !v.desc) out.push(`app.json: /permission/${scope}/desc: required: WeChat shows it when it asks`)
  }
  for (const [i, info] of (app.requiredPrivateInfos || []).entries()) {
    if (!PRIVATE_INFOS.includes(info)) out.push(`app.json: /requiredPrivateInfos/${i}: "${info}" is not one of ${PRIVATE_INFOS.join(', ')}`)
  }
  const subs = app.subPackages || app.subpackages || []
  const pages = [...(app.pages || [])]
  for (const [i, sub] of subs.entries()) {
    const root = String(sub.root || '').replace(/\/$/, '')
    if (!root || !fs.existsSync(path.join(dist, root))) out.push(`app.json: /subPackages/${i}/root: "${sub.root}" does not exist`)
    for (const p of sub.pages || []) pages.push(`${root}/${p}`)
  }
  if (app.entryPagePath && !pages.includes(app.entryPagePath)) out.push(`app.json: /entryPagePath: "${app.entryPagePath}" is not a listed page`)
  const seen = new Set()
  const checkComponents = (owner, json) => {
    for (const [name, ref] of Object.entries(json.usingComponents || {})) {
      if (/^plugin:\/\//.test(ref)) continue
      const target = ref.startsWith('/') ? ref.slice(1) : path.posix.join(path.posix.dirname(owner), ref)
      const missing = ['.js', '.json', '.wxml'].filter(ext => !fs.existsSync(path.join(dist, target + ext)))
      if (missing.length) { out.push(`${owner}.json: /usingComponents/${name}: "${ref}" resolves to no component (${missing.join(', ')} missing)`); continue }
      if (seen.has(target)) continue
      seen.add(target)
      const comp = read(`${target}.json`)
      if (!comp) continue
      if (comp.component !== true) out.push(`${target}.json: /component: required: true for a custom component`)
      out.push(...schemaProblems(ComponentJson, comp, `${target}.json`))
      out.push(...unknownFields(ComponentJson.properties, comp, `${target}.json`))
      checkComponents(target, comp)
    }
  }
  checkComponents('app', app)
  for (const page of pages) {
    const missing = ['.js', '.json', '.wxml'].filter(ext => !fs.existsSync(path.join(dist, page + ext)))
    if (missing.length) { out.push(`app.json: page "${page}" does not exist (${missing.join(', ')} missing)`); continue }
    const json = read(`${page}.json`)
    if (!json) continue
    out.push(...schemaProblems(PageJson, json, `${page}.json`))
    out.push(...unknownFields(PageJson.properties, json, `${page}.json`))
    checkComponents(page, json)
  }
  return [...new Set(out)]
}

/** miniprogram-ci's code-quality check of the project at `root` (its project.config.json): the failed checks. */
async function codeQuality (root) {
  const ci = require('miniprogram-ci')
  const config = JSON.parse(fs.readFileSync(path.join(root, 'project.config.json'), 'utf8'))
  // the check runs locally; the project object wants a key file it never uses for this
  const os = require('node:os')
  const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mpci-'))
  const key = path.join(keyDir, 'unused.key')
  fs.writeFileSync(key, require('node:crypto').generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }))
  try {
    const project = new ci.Project({ appid: config.appid, type: 'miniProgram', projectPath: root, privateKeyPath: key, ignores: ['node_modules/**/*'] })
    const results = await ci.checkCodeQuality(project)
    return results
  } finally {
    fs.rmSync(keyDir, { recursive: true, force: true })
  }
}

async function main () {
  const root = path.resolve(__dirname, '..')
  const dist = path.resolve(process.argv[2] || path.join(root, 'dist', 'weapp'))
  const t0 = Date.now()
  const problems = checkConfig(dist)
  for (const p of problems) console.error(`✗ ${p}`)
  console.log(`configuration: ${problems.length ? `${problems.length} problem(s)` : 'app.json and every page and component json match WeChat\'s documented fields'} (${Date.now() - t0} ms)`)
  let failed = problems.length > 0
  if (process.env.SKIP_CODE_QUALITY !== '1') {
    const t1 = Date.now()
    const results = await codeQuality(root)
    for (const r of results) {
      // a check's text names what it looks for ("JS compression is not turned on"): shown only when it fails
      console.log(`${r.success ? '✓' : '✗'} ${r.name}${r.success ? '' : `: ${r.text} (${r.docURL})`}${r.name === 'PACKAGE_SIZE_LIMIT' && r.detail ? ` ${JSON.stringify(r.detail)}` : ''}`)
      if (!r.success) failed = true
    }
    console.log(`miniprogram-ci checkCodeQuality: ${results.filter(r => !r.success).length} of ${results.length} failed (${Date.now() - t1} ms)`)
  }
  process.exit(failed ? 1 : 0)
}

if (require.main === module) main().catch(e => { console.error(e); process.exit(1) })

module.exports = { checkConfig, PRIVATE_INFOS }
