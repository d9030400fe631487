/**
 * scripts/check-weapp-wechat.js's configuration check, on small trees written here: it passes a valid
 * mini-program and names each thing WeChat's documented configuration refuses.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { checkConfig } = require('../../scripts/check-weapp-wechat.js') as { checkConfig: (dist: string) => string[] }

type Tree = Record<string, unknown>
const PAGE = { navigationBarTitleText: '', usingComponents: { comp: '../../comp' } }
function valid (): Tree {
  return {
    'app.json': {
      entryPagePath: 'pages/login/index',
      pages: ['pages/login/index'],
      subPackages: [{ root: 'pagesA', pages: ['home/index'] }],
      requiredPrivateInfos: ['getLocation'],
      permission: { 'scope.userLocation': { desc: '填写收货地址时定位' } },
      lazyCodeLoading: 'requiredComponents',
      window: { navigationBarTextStyle: 'black', backgroundColor: '#F8F8F8' }
    },
    'pages/login/index.json': PAGE,
    'pagesA/home/index.json': { navigationBarTitleText: '首页', usingComponents: { comp: '../../comp' } },
    'comp.json': { component: true, styleIsolation: 'apply-shared', usingComponents: { comp: './comp' } }
  }
}

function check (tree: Tree, drop: string[] = []): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'weapp-config-'))
  for (const [rel, json] of Object.entries(tree)) {
    const base = rel.replace(/\.json$/, '')
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    fs.writeFileSync(path.join(dir, rel), JSON.stringify(json))
    if (rel !== 'app.json') for (const ext of ['.js', '.wxml']) if (!drop.includes(base + ext)) fs.writeFileSync(path.join(dir, base + ext), '')
  }
  try { return checkConfig(dir) } finally { fs.rmSync(dir, { recursive: true, force: true }) }
}

const app = (t: Tree) => t['app.json'] as Record<string, unknown>

test('a valid mini-program passes', () => {
  expect(check(valid())).toEqual([])
})

test('an unknown field, in app.json, its window, a page or a component, is named', () => {
  const t = valid()
  app(t).pagez = ['x']
  ;(app(t).window as Record<string, unknown>).titleColor = '#000'
  t['pages/login/index.json'] = { ...PAGE, enableShareAppMessage: true }
  t['comp.json'] = { component: true, usingComponents: {}, virtualHost: true }
  expect(check(t)).toEqual(expect.arrayContaining([
    'app.json: /pagez: unknown field',
    'app.json: /window/titleColor: unknown field',
    'pages/login/index.json: /enableShareAppMessage: unknown field',
    'comp.json: /virtualHost: unknown field'
  ]))
})

test('a wrong type or value is named with its field', () => {
  const t = valid()
  app(t).networkTimeout = { request: '60000' }
  ;(app(t).window as Record<string, unknown>).navigationBarTextStyle = 'grey'
  t['pages/login/index.json'] = { ...PAGE, enablePullDownRefresh: 'yes', backgroundColor: 'white' }
  const problems = check(t)
  expect(problems.some(p => p.startsWith('app.json: /networkTimeout/request:'))).toBe(true)
  expect(problems.some(p => p.startsWith('app.json: /window/navigationBarTextStyle:'))).toBe(true)
  expect(problems.some(p => p.startsWith('pages/login/index.json: /enablePullDownRefresh:'))).toBe(true)
  expect(problems.some(p => p.startsWith('pages/login/index.json: /backgroundColor:'))).toBe(true)
})

test('a listed page that does not exist, a missing subpackage root and an entry page not listed', () => {
  const t = valid()
  app(t).pages = ['pages/login/index', 'pages/gone/index']
  app(t).subPackages = [{ root: 'pagesB', pages: ['x/index'] }]
  app(t).entryPagePath = 'pages/other/index'
  const problems = check(t)
  expect(problems).toEqual(expect.arrayContaining([
    'app.json: page "pages/gone/index" does not exist (.js, .json, .wxml missing)',
    'app.json: /subPackages/0/root: "pagesB" does not exist',
    'app.json: /entryPagePath: "pages/other/index" is not a listed page'
  ]))
  // a page without its template
  expect(check(valid(), ['pagesA/home/index.wxml'])).toEqual(['app.json: page "pagesA/home/index" does not exist (.wxml missing)'])
})

test('requiredPrivateInfos outside WeChat\'s list, and a permission without its desc or of an unknown scope', () => {
  const t = valid()
  app(t).requiredPrivateInfos = ['getLocation', 'getPosition']
  app(t).permission = { 'scope.userLocation': {}, 'scope.camera': { desc: '拍照' } }
  const problems = check(t)
  expect(problems).toEqual(expect.arrayContaining([
    expect.stringMatching(/^app\.json: \/requiredPrivateInfos\/1: "getPosition" is not one of getFuzzyLocation, getLocation/),
    'app.json: /permission/scope.userLocation/desc: required: WeChat shows it when it asks',
    expect.stringMatching(/^app\.json: \/permission\/scope\.camera: not one of scope\.userLocation/)
  ]))
})

test('a usingComponents path that resolves to no component', () => {
  const t = valid()
  t['pagesA/home/index.json'] = { navigationBarTitleText: '', usingComponents: { comp: '../../comp', gone: '../../components/gone' } }
  expect(check(t)).toEqual(['pagesA/home/index.json: /usingComponents/gone: "../../components/gone" resolves to no component (.js, .json, .wxml missing)'])
})
