/**
 * The H5 entry's staged start (scripts/webpack/staged-boot.js): the code Taro generates is rewritten
 * so that its imports are evaluated in the same order, one per task, and the app is created with the
 * same bindings. The generated code is run here with its import() calls answered by fake modules
 * that record when they are evaluated.
 */
import vm from 'node:vm'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { stage } = require('../../scripts/webpack/staged-boot.js') as { stage: (code: string, prewarm?: string[], beforeApp?: string[]) => string | null }

/** The shape of Taro 4's generated H5 entry (taro-loader/lib/h5), shortened. */
const ENTRY = [
  "import '@tarojs/plugin-platform-h5/dist/runtime'",
  "import { initPxTransform } from '@tarojs/taro'",
  "import { createRouter, createBrowserHistory, handleAppMount } from '@tarojs/router'",
  "import '@tarojs/components/global.css'",
  'import component from "./src/app"',
  "import { window } from '@tarojs/runtime'",
  "import { createReactApp } from '@tarojs/plugin-framework-react/dist/runtime'",
  '',
  "import * as React from 'react'",
  "import ReactDOM, { version as domVersion } from 'react-dom'",
  '',
  'var config = {"pages":["pages/login/index"]}',
  'window.__taroAppConfig = config',
  'var inst = createReactApp(component, React, ReactDOM, config)',
  'var history = createBrowserHistory({ window })',
  'handleAppMount(config, history)',
  'createRouter(history, inst, config, React)',
  'initPxTransform({ designWidth: 750 })',
  ''
].join('\n')

const realSetTimeout = setTimeout

interface Run { events: string[], window: Record<string, unknown>, errors: unknown[] }

/** Runs the staged code; every import() resolves a fake module and logs it, every task boundary logs '|'. */
async function run (code: string, replace: (events: string[]) => Record<string, Record<string, unknown>> = () => ({})): Promise<Run> {
  const events: string[] = []
  const window: Record<string, unknown> = {}
  const errors: unknown[] = []
  const modules: Record<string, Record<string, unknown>> = {
    '@tarojs/taro': { initPxTransform: (o: unknown) => events.push(`px ${JSON.stringify(o)}`) },
    '@tarojs/router': {
      createBrowserHistory: () => 'history',
      handleAppMount: (_c: unknown, h: unknown) => events.push(`mount ${String(h)}`),
      createRouter: (h: unknown, inst: unknown, _c: unknown, R: { name: string }) => events.push(`router ${String(h)} ${String(inst)} ${R.name}`)
    },
    './src/app': { default: 'App' },
    '@tarojs/plugin-framework-react/dist/runtime': {
      createReactApp: (comp: unknown, R: { name: string }, D: { name: string }, c: { pages: string[] }) => {
        events.push(`create ${String(comp)} ${R.name} ${D.name} ${c.pages[0]}`)
        return 'inst'
      }
    },
    react: { name: 'React' },
    'react-dom': { default: { name: 'ReactDOM' }, version: '18' },
    ...replace(events)
  }
  // import() is syntax: the test rewrites it to a function call it can answer
  const plain = code
    .replace(/^import \{ window \} from '@tarojs\/runtime'$/m, '')
    .replace(/import\((\/\*[^*]*\*\/\s*)*("[^"]*"|'[^']*')\)/g, (_m, _c, src: string) => `__import(${src})`)
  let tasks = 0
  const sandbox = {
    window,
    performance,
    setTimeout: (fn: () => void) => realSetTimeout(() => { try { fn() } catch (e) { errors.push(e) } }),
    MessageChannel: class {
      port1: { onmessage: (() => void) | null, close: () => void } = { onmessage: null, close: () => {} }
      port2 = { postMessage: () => { realSetTimeout(() => { tasks++; events.push('|'); this.port1.onmessage?.() }) } }
    },
    __import: (src: string) => Promise.resolve().then(() => {
      events.push(`eval ${src}`)
      return modules[src] ?? {}
    })
  }
  vm.runInNewContext(plain, sandbox)
  for (let i = 0; i < 100 && !events.some(e => e.startsWith('px ')); i++) await new Promise(resolve => realSetTimeout(resolve, 0))
  expect(tasks).toBeGreaterThan(0)
  return { events, window, errors }
}

test('the imports are evaluated in the same order, one task each, prewarmed libraries first; then the app is created, a task later its history and container are made, and a task after that the router', async () => {
  const code = stage(ENTRY, ['mobx'])
  expect(code).not.toBeNull()
  const { events, window } = await run(code!)
  expect(events).toEqual([
    'eval mobx', '|',
    'eval @tarojs/plugin-platform-h5/dist/runtime', '|',
    'eval @tarojs/taro', '|',
    'eval @tarojs/router', '|',
    'eval @tarojs/components/global.css', '|',
    'eval ./src/app', '|',
    'eval @tarojs/plugin-framework-react/dist/runtime', '|',
    'eval react', '|',
    'eval react-dom', '|',
    'create App React ReactDOM pages/login/index', '|',
    'mount history', '|',
    // the router gets the history made a task earlier (not the page's window.history)
    'router history inst React',
    'px {"designWidth":750}'
  ])
  expect(window.__taroAppConfig).toEqual({ pages: ['pages/login/index'] })
})

test('the beforeApp modules get steps of their own right before the app, after Taro\'s imports', async () => {
  const code = stage(ENTRY, ['mobx'], ['@/stores/locale', '@/services/request'])!
  const { events } = await run(code)
  const evals = events.filter(e => e.startsWith('eval '))
  expect(evals.slice(0, 7)).toEqual([
    'eval mobx',
    'eval @tarojs/plugin-platform-h5/dist/runtime',
    'eval @tarojs/taro',
    'eval @tarojs/router',
    'eval @tarojs/components/global.css',
    'eval @/stores/locale',
    'eval @/services/request'
  ])
  expect(evals[7]).toBe('eval ./src/app')
  // each in a task of its own
  expect(events.slice(events.indexOf('eval @/stores/locale'), events.indexOf('eval ./src/app') + 1)).toEqual([
    'eval @/stores/locale', '|', 'eval @/services/request', '|', 'eval ./src/app'
  ])
  expect(() => stage(ENTRY.replace('import component from "./src/app"', 'import app from "./src/app"'), [], ['@/stores/locale']))
    .toThrow(/no import of the app's component/)
})

test('page mounts are React transitions: rendered in slices, not in one long task', async () => {
  const code = stage(ENTRY)!
  const mounted: unknown[] = []
  const { events } = await run(code, events => {
    const app = {
      name: 'app',
      mount (this: { name: string }, page: string, id: string, cb: () => void) {
        events.push(`app.mount ${page} ${id} on ${this.name}`)
        mounted.push(cb)
      }
    }
    return {
      react: {
        name: 'React',
        startTransition: (fn: () => void) => { events.push('transition {'); fn(); events.push('}') }
      },
      '@tarojs/plugin-framework-react/dist/runtime': { createReactApp: () => app },
      '@tarojs/router': {
        createBrowserHistory: () => 'history',
        handleAppMount: () => undefined,
        // what Taro's router does with the app it is given: mounts the first page on it
        createRouter: (_h: unknown, inst: typeof app) => inst.mount('Login', 'pages/login/index', () => 'done')
      }
    }
  })
  expect(events.slice(events.indexOf('transition {'), events.indexOf('}') + 1)).toEqual([
    'transition {', 'app.mount Login pages/login/index on app', '}'
  ])
  expect(mounted).toHaveLength(1)
  expect((mounted[0] as () => string)()).toBe('done')
})

test('without startTransition (or an app without mount) the mount is left as it is', async () => {
  const code = stage(ENTRY)!
  const { events } = await run(code, events => {
    const app = { mount: (page: string) => events.push(`app.mount ${page}`) }
    return {
      '@tarojs/plugin-framework-react/dist/runtime': { createReactApp: () => app },
      '@tarojs/router': {
        createBrowserHistory: () => 'history',
        handleAppMount: () => undefined,
        createRouter: (_h: unknown, inst: typeof app) => inst.mount('Login')
      }
    }
  })
  expect(events).toContain('app.mount Login')
  expect(events).not.toContain('transition {')
})

test('webpack is told which exports each import uses, so the rest is still tree-shaken; the runtime import stays static', () => {
  const code = stage(ENTRY)!
  expect(code).toContain('/* webpackExports: ["initPxTransform"] */ \'@tarojs/taro\'')
  expect(code).toContain('/* webpackExports: ["createRouter","createBrowserHistory","handleAppMount"] */ \'@tarojs/router\'')
  expect(code).toContain('/* webpackExports: ["default"] */ "./src/app"')
  expect(code).toContain('/* webpackExports: ["default","version"] */ \'react-dom\'')
  expect(code).toContain('/* webpackExports: [] */ \'@tarojs/components/global.css\'')
  // a namespace import uses everything: no list
  expect(code).toMatch(/import\(\/\* webpackMode: "eager" \*\/ 'react'\)/)
  expect(code.split('\n')[0]).toBe("import { window } from '@tarojs/runtime'")
  expect(code).toContain('domVersion = ns["version"]')
  expect(code).not.toMatch(/\basync\b|\bawait\b/)
})

test('an entry of another shape is left alone (null), and an import after code is refused', () => {
  expect(stage('var x = 1\n')).toBeNull()
  expect(stage("import a from 'a'\nexport default a\nvar history = 1\n")).toBeNull()
  expect(stage("import a from 'a'\nconsole.log(a)\n")).toBeNull() // no app creation to split
  expect(() => stage("import a from 'a'\nvar x = a\nimport b from 'b'\nvar history = 1\n")).toThrow(/an import after code/)
  expect(() => stage("import a.b from 'a'\nvar history = 1\n")).toThrow(/cannot read the import clause/)
})

test('a failing step reaches the page as an uncaught error, and nothing after it runs', async () => {
  const code = stage(ENTRY)!.replace('"./src/app"', '"./missing"')
  const broken = code.replace(/\.then\(function \(ns\) \{ component = ns\["default"\];/, '.then(function (ns) { throw new Error("module failed");')
  expect(broken).not.toBe(code)
  const { events, errors } = await run(broken).catch(() => ({ events: [] as string[], errors: [] as unknown[] }))
  await new Promise(resolve => setTimeout(resolve, 20))
  expect(events.some(e => e.startsWith('create'))).toBe(false)
  expect(errors.map(e => String(e))).toEqual(['Error: module failed'])
})
