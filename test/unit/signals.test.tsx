/**
 * The first pages' reactivity without MobX (issue 23): the session, locale and capabilities stores tell
 * Signals of their changes (src/stores/signal.ts); `lightObserver` components follow them; and MobX,
 * once src/stores/mobx.ts has loaded, follows them too, in observers, computeds and reactions alike.
 * The sources are held to the rules that keep MobX out of the first pages.
 */
import fs from 'node:fs'
import path from 'node:path'
import { act, cleanup, render } from '@testing-library/react'
import { Signal, readingWith, signalsBridged } from '@/stores/signal'
import { lightObserver } from '@/stores/lightObserver'
import { LocaleStore, localeStore, t } from '@/stores/locale'
import { SessionStore } from '@/stores/session'
import { CapabilitiesStore } from '@/stores/capabilities'
import { tokenStorage } from '@/services/token'
import type { LoginSettings, UserInfo } from '~types/accounts'

afterEach(() => { cleanup() })

class Counter {
  private readonly signal = new Signal('counter')
  private n = 0
  get value (): number { this.signal.observe(); return this.n }
  add (): void { this.n++; this.signal.changed() }
}

const user = (id: number): UserInfo => ({ id, userName: `user${id}`, nickname: '', phone: '', email: '' } as unknown as UserInfo)

describe('lightObserver', () => {
  it('renders again when a store it read changes, and only then', () => {
    const counter = new Counter()
    const other = new Counter()
    let renders = 0
    const View = lightObserver(function View () {
      renders++
      return <span>{counter.value}</span>
    })
    const { container, unmount } = render(<View />)
    expect(container.textContent).toBe('0')
    expect(renders).toBe(1)
    act(() => { counter.add() })
    expect(container.textContent).toBe('1')
    expect(renders).toBe(2)
    act(() => { other.add() })
    expect(renders).toBe(2)
    // several changes in one go: one render
    act(() => { counter.add(); counter.add() })
    expect(container.textContent).toBe('3')
    expect(renders).toBe(3)
    unmount()
    act(() => { counter.add() })
    expect(renders).toBe(3)
  })

  it('follows a store first read by a later render', () => {
    const gate = new Counter()
    const late = new Counter()
    const View = lightObserver(function View () {
      return <span>{gate.value > 0 ? `late ${late.value}` : 'closed'}</span>
    })
    const { container } = render(<View />)
    expect(container.textContent).toBe('closed')
    act(() => { late.add() })
    expect(container.textContent).toBe('closed')
    act(() => { gate.add() })
    expect(container.textContent).toBe('late 1')
    act(() => { late.add() })
    expect(container.textContent).toBe('late 2')
  })

  it('a change between the render and the commit is not lost', () => {
    const counter = new Counter()
    const View = lightObserver(function View () {
      const value = counter.value
      // a change during the render, after the read (as a store answering synchronously might)
      if (value === 0) counter.add()
      return <span>{value}</span>
    })
    const { container } = render(<View />)
    expect(container.textContent).toBe('1')
  })

  it('follows the language: the text changes with a switch', async () => {
    const Greeting = lightObserver(function Greeting () { return <span>{t('titles.home')}</span> })
    await act(() => localeStore.setLocale('zh'))
    const { container } = render(<Greeting />)
    expect(container.textContent).toBe('首页')
    await act(() => localeStore.setLocale('en'))
    expect(container.textContent).toBe('Home')
  })

  it('renders without following anything when it reads no store, and keeps memo\'s props check', () => {
    let renders = 0
    const Plain = lightObserver(function Plain ({ label }: { label: string }) { renders++; return <b>{label}</b> })
    const { container, rerender } = render(<Plain label='a' />)
    rerender(<Plain label='a' />)
    expect(renders).toBe(1)
    rerender(<Plain label='b' />)
    expect(container.textContent).toBe('b')
    expect(renders).toBe(2)
  })
})

describe('the stores tell their Signals', () => {
  it('reads are reported to whoever renders', () => {
    const session = new SessionStore()
    const locale = new LocaleStore('zh')
    const capabilities = new CapabilitiesStore()
    const seen = new Set<string>()
    readingWith({ read: s => seen.add(s.name) }, () => {
      void session.loggedIn
      void locale.t('titles.home')
      void capabilities.has('maps')
    })
    expect([...seen].sort()).toEqual(['capabilities', 'locale', 'session'])
  })

  it('the session changes on login, on a token cleared by the client, and on the user restored', () => {
    const session = new SessionStore()
    let changes = 0
    const stop = (session as unknown as { signal: Signal }).signal.subscribe(() => { changes++ })
    session.login({ token: 'abc', user: user(1) } as never)
    expect(session.loggedIn).toBe(true)
    expect(session.user?.id).toBe(1)
    const afterLogin = changes
    expect(afterLogin).toBeGreaterThan(0)
    tokenStorage.clear()
    expect(session.loggedIn).toBe(false)
    expect(session.user).toBeNull()
    expect(changes).toBeGreaterThan(afterLogin)
    stop()
  })
})

describe('MobX follows the Signal stores once src/stores/mobx.ts has loaded', () => {
  it('a reaction follows the session, with signals made before the bridge loaded', () => {
    // signals made before the bridge get their atom when it loads, as the first page's stores do
    let bridged = false
    let mobx!: typeof import('@/stores/mobx')
    let session!: SessionStore
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const signal = require('@/stores/signal') as typeof import('@/stores/signal')
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      session = new (require('@/stores/session') as typeof import('@/stores/session')).SessionStore()
      expect(signal.signalsBridged()).toBe(false)
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      mobx = require('@/stores/mobx')
      bridged = signal.signalsBridged()
    })
    expect(bridged).toBe(true)

    const seen: boolean[] = []
    const stop = mobx.reaction(() => session.loggedIn, loggedIn => seen.push(loggedIn))
    session.login({ token: 'xyz', user: user(2) } as never)
    session.clear()
    stop()
    expect(seen).toEqual([true, false])
  })

  it('this module graph has the bridge too (the app\'s MobX stores import it)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@/stores/draw')
    expect(signalsBridged()).toBe(true)
  })

  it('an observer follows the capabilities and the language', async () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mobx = require('@/stores/mobx') as typeof import('@/stores/mobx')
    const capabilities = new CapabilitiesStore()
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const account = require('@/services/account') as typeof import('@/services/account')
    let renders = 0
    const Badge = mobx.observer(function Badge () {
      renders++
      return <i>{capabilities.has('maps') ? t('titles.home') : 'no maps'}</i>
    })
    const { container } = render(<Badge />)
    expect(container.textContent).toBe('no maps')
    const settings = { capabilities: { maps: true } } as unknown as LoginSettings
    jest.spyOn(account.accountApi, 'loginSettings').mockResolvedValue(settings)
    await act(() => localeStore.setLocale('zh'))
    await act(() => capabilities.refresh().then(() => undefined))
    expect(container.textContent).toBe('首页')
    await act(() => localeStore.setLocale('en'))
    expect(container.textContent).toBe('Home')
    // the first render did not read the language (no t() then): the switch before the refresh did not render it
    expect(renders).toBe(3)
  })
})

/** Static imports from a module, resolved as the H5 build does (a `.h5` variant first). */
const SRC = path.resolve(__dirname, '../../src')
function resolve (from: string, spec: string): string | null {
  let base: string
  if (spec.startsWith('@/')) base = path.join(SRC, spec.slice(2))
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec)
  else return null
  for (const c of [`${base}.h5.tsx`, `${base}.h5.ts`, `${base}.tsx`, `${base}.ts`, base, `${base}/index.h5.tsx`, `${base}/index.h5.ts`, `${base}/index.tsx`, `${base}/index.ts`]) {
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c
  }
  return null
}
function staticImports (file: string): string[] {
  const text = fs.readFileSync(file, 'utf8')
  const out: string[] = []
  for (const m of text.matchAll(/^(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
    if (!m[2]) out.push(m[3])
  }
  return out
}
/** Every module the given ones reach by static imports, with the bare packages they import. */
function reach (entries: string[]): { modules: Set<string>; packages: Map<string, string> } {
  const modules = new Set<string>()
  const packages = new Map<string, string>()
  const visit = (file: string) => {
    if (modules.has(file)) return
    modules.add(file)
    for (const spec of staticImports(file)) {
      const target = resolve(file, spec)
      if (target) { if (/\.(tsx?|js)$/.test(target)) visit(target) } else if (!spec.startsWith('.') && !spec.startsWith('@/') && !spec.startsWith('~')) packages.set(spec, path.relative(SRC, file))
    }
  }
  entries.forEach(e => visit(path.join(SRC, e)))
  return { modules, packages }
}

describe('the sources keep MobX out of the first pages', () => {
  it('H5: the app, login and home reach neither MobX nor src/stores/mobx.ts by static imports', () => {
    const { modules, packages } = reach(['app.tsx', 'pages/login/index.tsx', 'pagesA/home/index.tsx'])
    expect(modules.size).toBeGreaterThan(30)
    expect([...packages.keys()]).toContain('react')
    const mobx = [...packages].filter(([name]) => /^mobx/.test(name)).map(([name, by]) => `${by} imports ${name}`)
    expect(mobx).toEqual([])
    expect([...modules].map(m => path.relative(SRC, m))).not.toContain('stores/mobx.ts')
  })

  it('the check itself finds MobX where a first page imports it (negative control)', () => {
    const show = reach(['pagesA/show/index.tsx'])
    expect([...modules(show)]).toContain('stores/mobx.ts')
    const { packages } = show
    expect([...packages.keys()].some(name => /^mobx/.test(name))).toBe(true)
  })

  it('only src/stores/mobx.ts imports mobx or mobx-react-lite (so the bridge is always in first)', () => {
    const offenders: string[] = []
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const abs = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(abs)
        else if (/\.tsx?$/.test(entry.name) && path.relative(SRC, abs) !== path.join('stores', 'mobx.ts')) {
          if (staticImports(abs).some(spec => /^mobx(-react-lite)?$/.test(spec)) || /import\(\s*['"]mobx/.test(fs.readFileSync(abs, 'utf8'))) offenders.push(path.relative(SRC, abs))
        }
      }
    }
    walk(SRC)
    expect(offenders).toEqual([])
  })
})

function modules (r: { modules: Set<string> }): Set<string> {
  return new Set([...r.modules].map(m => path.relative(SRC, m)))
}
