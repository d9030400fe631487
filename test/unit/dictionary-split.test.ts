/**
 * The H5 build sends only the first part of the dictionary (src/locales/<locale>/core.ts) with the app;
 * every other page waits for the rest by importing '@/locales/full' first. These rules keep that true
 * as the app grows: the code that runs before a page's own (the app's start, the login page, home and
 * everything they import, as the H5 build resolves it) uses only the first part's groups, and every
 * other page imports '@/locales/full' before anything else.
 */
import fs from 'node:fs'
import path from 'node:path'
import zhCore from '@/locales/zh/core'
import zhRest from '@/locales/zh/rest'

const SRC = path.resolve(__dirname, '../../src')
const FIRST_PAGES = ['pages/login/index', 'pagesA/home/index']

type Build = 'h5' | 'weapp'

/** A source import, resolved the way the H5 build does (a `.h5.ts` file first), or the mini-program's (`.weapp.ts`). */
function resolve (from: string, spec: string, build: Build = 'h5'): string | null {
  let base: string
  if (spec.startsWith('@/')) base = path.join(SRC, spec.slice(2))
  else if (spec.startsWith('.')) base = path.resolve(path.dirname(from), spec)
  else return null
  for (const ext of [`.${build}.ts`, `.${build}.tsx`, '.ts', '.tsx', `/index.${build}.ts`, '/index.ts', '/index.tsx']) {
    const file = base + ext
    if (fs.existsSync(file) && fs.statSync(file).isFile()) return file
  }
  return null
}

/** Value imports (not `import type`, not dynamic import(), which is a chunk of its own). */
function importsOf (file: string, build: Build = 'h5'): string[] {
  const text = fs.readFileSync(file, 'utf8')
  const found: string[] = []
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?from\s+'([^']+)'|^\s*import\s+'([^']+)'/gm)) {
    if (m[2]) continue
    const target = resolve(file, m[3] ?? m[4], build)
    if (target) found.push(target)
  }
  return found
}

function reachable (entries: string[], build: Build = 'h5'): Set<string> {
  const seen = new Set<string>()
  const walk = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    importsOf(file, build).forEach(walk)
  }
  entries.forEach(walk)
  return seen
}

const pagesOf = (): string[] => {
  const config = fs.readFileSync(path.join(SRC, 'app.config.ts'), 'utf8')
  const main = [...config.matchAll(/'(pages\/\w+\/index)'/g)].map(m => m[1])
  const sub = [...config.matchAll(/'(\w+\/index)'/g)].map(m => `pagesA/${m[1]}`)
  return [...new Set([...main, ...sub])].filter(p => fs.existsSync(path.join(SRC, `${p}.tsx`)))
}

describe('the dictionary in two parts', () => {
  const coreGroups = new Set(Object.keys(zhCore))
  const restGroups = Object.keys(zhRest)

  it('the first part has the groups of the start, and the rest the others', () => {
    expect([...coreGroups].sort()).toEqual(['app', 'feedback', 'finder', 'home', 'late', 'login', 'nav', 'privacy', 'profile', 'rarity', 'request', 'titles', 'wechatLogin'])
    expect(restGroups.length).toBeGreaterThan(30)
  })

  it('every page but login and home imports @/locales/full before anything else (the web view: @/locales/documents, the same on H5)', () => {
    const pages = pagesOf()
    // 17, and the player show's feed and post (issue 27)
    expect(pages).toHaveLength(19)
    for (const page of pages) {
      const text = fs.readFileSync(path.join(SRC, `${page}.tsx`), 'utf8')
      const first = /^import\s+(?:[^'\n]*\sfrom\s+)?'([^'\n]+)'/m.exec(text)?.[1]
      if (FIRST_PAGES.includes(page)) expect({ page, first }).not.toEqual({ page, first: '@/locales/full' })
      else if (page === 'pages/web_view/index') expect({ page, first }).toEqual({ page, first: '@/locales/documents' })
      else expect({ page, first }).toEqual({ page, first: '@/locales/full' })
    }
    // on H5 the web view's import is the rest's wait itself
    expect(importsOf(path.join(SRC, 'locales/documents.h5.ts'))).toEqual([path.join(SRC, 'locales/full.h5.ts')])
  })

  it("the mini-program's main package (the start, login, the web view) holds the first part and the web view's texts, not the rest", () => {
    const config = fs.readFileSync(path.join(SRC, 'app.config.ts'), 'utf8')
    const mainPages = [...new Set([...config.matchAll(/'(pages\/\w+\/index)'/g)].map(m => m[1]))]
    expect(mainPages.sort()).toEqual(['pages/login/index', 'pages/web_view/index'])
    const files = reachable([path.join(SRC, 'app.tsx'), ...mainPages.map(p => path.join(SRC, `${p}.tsx`))], 'weapp')
    const rel = [...files].map(f => path.relative(SRC, f))
    expect(rel).toContain('locales/load.weapp.ts')
    expect(rel).toContain('locales/documents.weapp.ts')
    expect(rel.filter(f => /^locales\/(zh|en)(\.ts|\/rest\.ts)$|^locales\/full/.test(f))).toEqual([])
    // and what they (and home, in the subpackage without the rest) reach in the mini-program uses only
    // the first part's groups, the web view's own two groups in the web view's files
    const allGroups = [...coreGroups, ...restGroups].join('|')
    const keyRe = new RegExp(`['\`](${allGroups})\\.(\\$\\{|[a-zA-Z])`, 'g')
    const outside: string[] = []
    const firstFiles = reachable([path.join(SRC, 'app.tsx'), ...FIRST_PAGES.map(p => path.join(SRC, `${p}.tsx`))], 'weapp')
    const viewFiles = reachable([path.join(SRC, 'pages/web_view/index.tsx')], 'weapp')
    for (const file of new Set([...firstFiles, ...viewFiles])) {
      if (/[\\/]locales[\\/]/.test(file)) continue
      const allowed = firstFiles.has(file) ? coreGroups : new Set([...coreGroups, 'agreements', 'webView'])
      const text = fs.readFileSync(file, 'utf8')
      for (const m of text.matchAll(keyRe)) if (!allowed.has(m[1])) outside.push(`${path.relative(SRC, file)}: ${m[0]}`)
    }
    expect(outside).toEqual([])
    // a subpackage page reaches the rest through full.weapp.ts
    const sub = [...reachable([path.join(SRC, 'pagesA/combine/index.tsx')], 'weapp')].map(f => path.relative(SRC, f))
    expect(sub).toEqual(expect.arrayContaining(['locales/full.weapp.ts', 'locales/zh/rest.ts', 'locales/en/rest.ts']))
  })

  it('the start, login and home use only the first part (as H5 resolves their imports)', () => {
    const files = reachable([path.join(SRC, 'app.tsx'), ...FIRST_PAGES.map(p => path.join(SRC, `${p}.tsx`))])
    expect(files.size).toBeGreaterThan(20)
    // the rest's files must not be among them (that would send the whole dictionary with the app)
    const rel = [...files].map(f => path.relative(SRC, f))
    expect(rel.filter(f => /^locales\/(zh|en)(\.ts|\/rest\.ts)$/.test(f))).toEqual([])
    expect(rel).toContain('locales/load.h5.ts')
    const allGroups = [...coreGroups, ...restGroups].join('|')
    const keyRe = new RegExp(`['\`](${allGroups})\\.(\\$\\{|[a-zA-Z])`, 'g')
    const outside: string[] = []
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8')
      for (const m of text.matchAll(keyRe)) if (!coreGroups.has(m[1])) outside.push(`${path.relative(SRC, file)}: ${m[0]}`)
    }
    expect(outside).toEqual([])
  })

  it('the rule sees a key of the rest where it would be one', () => {
    // the same pattern, on a line that uses a key of the rest
    const allGroups = [...coreGroups, ...restGroups].join('|')
    const keyRe = new RegExp(`['\`](${allGroups})\\.(\\$\\{|[a-zA-Z])`, 'g')
    expect([..."label: 'combine.toCombine'".matchAll(keyRe)].map(m => m[1])).toEqual(['combine'])
  })
})
