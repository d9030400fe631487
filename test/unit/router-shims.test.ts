/**
 * The H5 build's stand-ins for Taro's router libraries (src/shims/query-string.js and
 * src/shims/universal-router.js) answer as the libraries themselves for every call Taro makes:
 * compared on hand-picked and generated inputs, malformed percent-encoding included, and on the
 * app's own routes. Options or routes the stand-ins do not cover are refused.
 */
import real from 'query-string'
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RealRouter = require('universal-router') as new (routes: unknown, options?: unknown) => { resolve: (p: string) => Promise<unknown> }
// the stand-ins are plain JavaScript, typed here as the libraries they stand in for
// eslint-disable-next-line @typescript-eslint/no-require-imports
const shim = require('@/shims/query-string').default as typeof real
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ShimRouter = require('@/shims/universal-router').default as typeof RealRouter

/** A small seeded generator, so a failure names an input that can be replayed. */
function generator (seed: number) {
  let s = seed >>> 0
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32 }
}

const PIECES = ['a', 'b', 'Z', '=', '&', '+', '?', '#', '%', '%2', '%20', '%E4', '%BD', '%A0', '%E4%BD%A0', '%FF', '%FE%FF', '%FF%FE', '%C2', '%C3%A9', '%F0%9F%8E%81', '%80', '你', ' ', '[]', '__proto__', 'stamp', '1', '%3D', '%26']

function corpus (count: number, seed: number): string[] {
  const random = generator(seed)
  const out = ['', '?', '&&&', '?a=1&b=2&a=3', 'a', 'a=', '=a', '?x=%E4%BD%A0%E5%A5%BD&y=+', '#hash=1', '  ?a=1  ', 'a=%', 'a=%ZZ', 'a=1&&b', 'id=42&stamp=abc']
  for (let i = 0; i < count; i++) {
    let text = random() < 0.3 ? '?' : ''
    const length = 1 + Math.floor(random() * 8)
    for (let j = 0; j < length; j++) text += PIECES[Math.floor(random() * PIECES.length)]
    out.push(text)
  }
  return out
}

const plain = (o: unknown) => JSON.parse(JSON.stringify(o))

test('parse, decoding or not, gives what query-string gives', () => {
  for (const input of corpus(4000, 7)) {
    for (const options of [undefined, { decode: false }]) {
      const expected = real.parse(input, options)
      const actual = shim.parse(input, options)
      expect({ input, options, result: plain(actual), keys: Object.keys(actual) }).toEqual({ input, options, result: plain(expected), keys: Object.keys(expected) })
      expect(Object.getPrototypeOf(actual)).toBe(null)
    }
  }
})

test('stringify as Taro calls it (comma arrays, nulls skipped) gives what query-string gives', () => {
  const random = generator(11)
  const values = [null, undefined, '', 'a b', '你好', "it's (ok)*!", 0, 42, true, ['x', 'y'], ['a,b', null, ''], [], [undefined, 'q'], '%']
  const objects: Record<string, unknown>[] = [{}, { b: 1, a: 2 }, { name: 'A&B=C', list: ['1', '2'] }]
  for (let i = 0; i < 500; i++) {
    const o: Record<string, unknown> = {}
    const n = Math.floor(random() * 5)
    for (let j = 0; j < n; j++) o[['k', 'z', 'a b', '名', 'x*'][Math.floor(random() * 5)] + j] = values[Math.floor(random() * values.length)]
    objects.push(o)
  }
  for (const o of objects) {
    for (const options of [{ arrayFormat: 'comma' as const, skipNull: true }, { arrayFormat: 'comma' as const }, undefined]) {
      expect({ o, options, out: shim.stringify(o, options) }).toEqual({ o, options, out: real.stringify(o, options) })
    }
  }
})

test('the query-string stand-in refuses options it does not implement', () => {
  expect(() => shim.parse('a=1', { parseNumbers: true } as never)).toThrow(/parseNumbers is not supported/)
  expect(() => shim.stringify({ a: [1] }, { arrayFormat: 'bracket' } as never)).toThrow(/arrayFormat is not supported/)
})

/** The app's pages as Taro's single-page router lists them (router/spa.js: a leading slash, the entry page also as '/'). */
function appRoutes () {
  // the app's config, read as Taro's build reads it (defineAppConfig is a global of the build)
  const g = globalThis as unknown as { defineAppConfig?: (c: unknown) => unknown }
  g.defineAppConfig = c => c
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const appConfig = require('@/app.config').default as { pages: string[], subPackages?: { root: string, pages: string[] }[] }
  delete g.defineAppConfig
  const pages = [...appConfig.pages, ...(appConfig.subPackages || []).flatMap(p => p.pages.map(page => `${p.root}/${page}`))]
  return pages.map(page => ({ path: page === 'pages/login/index' ? ['/pages/login/index', '/'] : `/${page}`, action: (context: { pathname: string, path: string }) => ({ page, pathname: context.pathname, path: context.path }) }))
}

test('resolve picks the page universal-router picks, and 404s where it does', async () => {
  const routes = appRoutes()
  const real = new RealRouter(routes.map(r => ({ ...r })), { baseUrl: '' })
  const mine = new ShimRouter(routes.map(r => ({ ...r })), { baseUrl: '' })
  const pathnames = ['/', '//', '', '/pages/login/index', '/pages/login/index/', '/pages/login/index//', '/PAGES/LOGIN/INDEX', '/pagesA/home/index', '/pagesA/home/index?', '/pagesA/home/index#', '/pagesA/home/index.html', '/pagesA/home', '/pagesA/home/index/x', '/pagesA/blind_box_detail/index', '/pagesA/blind_box_detail/indexx', '/nope', '/pagesA/profile/index/']
  for (const pathname of pathnames) {
    const settle = (p: Promise<unknown>) => p.then(v => ({ v }), (e: { status?: number, message: string }) => ({ status: e.status, message: e.message }))
    expect({ pathname, out: await settle(mine.resolve(pathname)) }).toEqual({ pathname, out: await settle(real.resolve(pathname)) })
  }
})

test('an action that answers nothing passes the path on, as in universal-router', async () => {
  const routes = () => [{ path: '/a', action: () => undefined }, { path: ['/b', '/a'], action: () => 'second' }]
  expect(await new ShimRouter(routes()).resolve('/a')).toBe(await new RealRouter(routes()).resolve('/a'))
})

test('the router stand-in refuses routes with parameters or nesting', () => {
  expect(() => new ShimRouter([{ path: '/item/:id', action: () => 1 }])).toThrow(/not a fixed path/)
  expect(() => new ShimRouter([{ path: '/a', children: [] }])).toThrow(/nested routes/)
})
