/**
 * One way to load data in pages (docs/app.md "Loading data in pages"): pages, editor tabs and components
 * load through src/utils/useRemote.ts, not through loading/failure/paging state of their own. This scans
 * src/ with the TypeScript parser and fails on the old pattern:
 *
 * 1. an effect (useEffect, useDidShow, useLoad...) that fetches and keeps the answer in a useState of its
 *    own (directly, in a `.then`, or through a local function such as `load()` it calls);
 * 2. a useState named like loading state (loading, failed, noMore, hasMore...) set by code that fetches;
 * 3. pages appended by hand: a setter given `prev => [...prev, ...]` by code that fetches.
 *
 * "Fetches" means a call of an API module (`somethingApi.call(...)`), of the shop's settings
 * (`capabilitiesStore.ensure/refresh`), of the session's role (`sessionStore.restore`) or of a fetching
 * helper (FETCH_HELPERS). State that is no
 * request's (a form draft, a map that failed to draw, the device's position) is not flagged, nor is a
 * mutation (a tap that saves, then reloads through the hook).
 */
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const SRC = path.resolve(__dirname, '../../src')

/**
 * Temporary exceptions: other engineers are converting these files right now (issue 28 item 3); each
 * comes off this list when its conversion lands (all have: the list is empty). Nothing may be added here.
 */
const BEING_CONVERTED: string[] = []
/** Not pages: the hook itself, and the stores and services the hook's callers use. */
const NOT_PAGES = [/^utils\/useRemote\.ts$/, /^stores\//, /^services\//]

const LOADING_NAMES = /^(loading|isLoading|failed|failure|error|loadError|noMore|hasMore|more|loaded|fetching|refreshing)$/
const EFFECTS = new Set(['useEffect', 'useLayoutEffect', 'useDidShow', 'useLoad', 'useReady', 'usePullDownRefresh', 'useReachBottom'])

function sourceFiles (dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : []
  })
}

/** Helpers that fetch, called by name. */
const FETCH_HELPERS = new Set(['drivingRoute', 'invokeTable'])

/** Whether a call fetches: `xxxApi.call()`, `capabilitiesStore.ensure/refresh()`, `sessionStore.restore()`, a helper above. */
function isFetch (node: ts.Node): boolean {
  if (!ts.isCallExpression(node)) return false
  if (ts.isIdentifier(node.expression)) return FETCH_HELPERS.has(node.expression.text)
  if (!ts.isPropertyAccessExpression(node.expression)) return false
  const target = node.expression.expression
  const method = node.expression.name.text
  if (!ts.isIdentifier(target)) return false
  if (/Api$/.test(target.text)) return true
  if (target.text === 'capabilitiesStore') return method === 'ensure' || method === 'refresh'
  if (target.text === 'sessionStore') return method === 'restore'
  return false
}

/** What one source file breaks of the rule: a line each, with its line number. */
function findOwnLoadingState (file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const line = (n: ts.Node) => source.getLineAndCharacterOfPosition(n.getStart(source)).line + 1

  // the useState setters, and which hold loading state
  const setters = new Set<string>()
  const loadingSetters = new Map<string, string>()
  // local functions by name (const load = async () => {...}; function load () {...})
  const functions = new Map<string, ts.Node>()
  const visit = (n: ts.Node) => {
    if (ts.isVariableDeclaration(n) && n.initializer) {
      const init = n.initializer
      if (ts.isArrayBindingPattern(n.name) && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'useState') {
        const [value, setter] = n.name.elements
        if (setter && ts.isBindingElement(setter) && ts.isIdentifier(setter.name)) {
          setters.add(setter.name.text)
          if (value && ts.isBindingElement(value) && ts.isIdentifier(value.name) && LOADING_NAMES.test(value.name.text)) loadingSetters.set(setter.name.text, value.name.text)
        }
      }
      if (ts.isIdentifier(n.name) && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) functions.set(n.name.text, init)
      // const load = useCallback(async () => {...}, [...])
      if (ts.isIdentifier(n.name) && ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'useCallback' && init.arguments[0]) functions.set(n.name.text, init.arguments[0])
    }
    if (ts.isFunctionDeclaration(n) && n.name) functions.set(n.name.text, n)
    ts.forEachChild(n, visit)
  }
  visit(source)

  /** What a piece of code does, following calls of local functions (each once). */
  function reach (root: ts.Node) {
    const seen = new Set<ts.Node>()
    const found = { fetches: false, sets: new Set<string>(), appends: false }
    const walk = (n: ts.Node) => {
      if (isFetch(n)) found.fetches = true
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression)) {
        const name = n.expression.text
        if (setters.has(name)) {
          found.sets.add(name)
          const arg = n.arguments[0]
          // prev => [...prev, ...more]
          if (arg && ts.isArrowFunction(arg) && arg.parameters.length === 1 && ts.isIdentifier(arg.parameters[0].name)) {
            const prev = arg.parameters[0].name.text
            const spreadsPrev = (x: ts.Node): boolean => (ts.isSpreadElement(x) && ts.isIdentifier(x.expression) && x.expression.text === prev) || !!ts.forEachChild(x, spreadsPrev)
            if (spreadsPrev(arg.body)) found.appends = true
          }
        }
        const fn = functions.get(name)
        if (fn && !seen.has(fn)) { seen.add(fn); walk(fn) }
      }
      // a setter passed by name: .then(setA)
      if (ts.isIdentifier(n) && setters.has(n.text) && n.parent && ts.isCallExpression(n.parent) && n.parent.arguments.includes(n)) found.sets.add(n.text)
      // useEffect(load, []) and the like: a function passed by name
      if (ts.isIdentifier(n) && functions.has(n.text) && n.parent && ts.isCallExpression(n.parent) && n.parent.arguments.includes(n)) {
        const fn = functions.get(n.text)!
        if (!seen.has(fn)) { seen.add(fn); walk(fn) }
      }
      ts.forEachChild(n, walk)
    }
    walk(root)
    return found
  }

  const problems: string[] = []
  const say = (n: ts.Node, what: string) => problems.push(`${path.relative(SRC, file)}:${line(n)} ${what}`)
  const check = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && EFFECTS.has(n.expression.text) && n.arguments[0]) {
      const r = reach(n.arguments[0])
      if (r.fetches && r.sets.size) say(n, `${n.expression.text} fetches and keeps the answer in its own state (${[...r.sets].join(', ')}): use useRemote/usePagedList`)
    }
    ts.forEachChild(n, check)
  }
  check(source)
  for (const [name, fn] of functions) {
    // a component as a whole is judged by its effects above; its own functions (load, more...) here
    if (/^[A-Z]/.test(name)) continue
    const r = reach(fn)
    if (!r.fetches) continue
    const own = [...r.sets].filter(s => loadingSetters.has(s))
    if (own.length) say(fn, `${name} fetches and sets loading state of its own (${own.map(s => loadingSetters.get(s)).join(', ')}): the hook holds it`)
    if (r.appends) say(fn, `${name} fetches and appends a page by hand: usePagedList's loadMore does`)
  }
  return [...new Set(problems)]
}

test('no page, tab or component keeps its own loading, failure or paging state (the hook does)', () => {
  const problems = sourceFiles(SRC).flatMap(file => {
    const rel = path.relative(SRC, file).split(path.sep).join('/')
    if (BEING_CONVERTED.includes(rel) || NOT_PAGES.some(r => r.test(rel))) return []
    return findOwnLoadingState(file, fs.readFileSync(file, 'utf8'))
  })
  expect(problems).toEqual([])
})

test('the temporary exceptions are files that exist', () => {
  for (const rel of BEING_CONVERTED) expect(fs.existsSync(path.join(SRC, rel))).toBe(true)
})

describe('what the scan flags and what it leaves', () => {
  const scan = (code: string) => findOwnLoadingState(path.join(SRC, 'pagesA/x/index.tsx'), code)

  test('an effect fetching into its own state, directly, by .then, through load(), or passed by name', () => {
    expect(scan('function P () { const [a, setA] = useState(null); useEffect(() => { shopApi.thing().then(setA) }, []) }')).toHaveLength(1)
    expect(scan(`function P () { const [a, setA] = useState(null)
      const load = async () => { setA(await shopApi.thing()) }
      useDidShow(() => { void load() }) }`)).toHaveLength(1)
    expect(scan(`function P () { const [a, setA] = useState(null)
      const check = () => { sessionStore.restore().then(ok => setA(ok)) }
      useEffect(check, []) }`)).toHaveLength(1)
    expect(scan(`function P () { const [r, setR] = useState(null)
      useEffect(() => { let on = true; drivingRoute(p, a, b).then(x => { if (on) setR(x) }); return () => { on = false } }, []) }`)).toHaveLength(1)
    expect(scan(`function P () { const [a, setA] = useState(null)
      const load = useCallback(async () => { setA(await expressApi.inquiry({})) }, [])
      useEffect(() => { load() }, [load]) }`)).toHaveLength(1)
    expect(scan(`function P () { const [s, setS] = useState(null)
      useEffect(() => { let live = true; capabilitiesStore.ensure().then(x => { if (live) setS(x) }); return () => { live = false } }, []) }`)).toHaveLength(1)
  })

  test('loading flags and pages appended by hand, wherever the fetch is started from', () => {
    expect(scan(`function P () { const [failed, setFailed] = useState(false)
      const retry = async () => { try { await shopApi.thing() } catch { setFailed(true) } } }`)).toEqual([expect.stringContaining('(failed)')])
    expect(scan(`function P () { const [list, setList] = useState([])
      const more = async (page) => { const r = await shopApi.list({ page }); setList(prev => [...prev, ...r.list]) } }`)).toEqual([expect.stringContaining('appends a page')])
  })

  test('left alone: the hook, a mutation then a reload, state no request holds, a position followed in an effect', () => {
    expect(scan(`function P () {
      const list = usePagedList((page, size) => shopApi.list({ page, size }), { pageSize: 20 })
      const [busy, setBusy] = useState(false)
      const save = async () => { setBusy(true); try { await shopApi.save() } finally { setBusy(false); await list.refresh() } }
      const [failed, setFailed] = useState(false)
      const [origin, setOrigin] = useState(null)
      useEffect(() => { let live = true; locate().then(at => { if (live) setOrigin(at) }); return () => { live = false } }, [])
      useDidShow(() => { void list.refresh() })
      return <Map onError={() => setFailed(true)} />
    }`)).toEqual([])
  })
})
