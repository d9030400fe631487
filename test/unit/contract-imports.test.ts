/**
 * The app takes the contract's types from types/ and nothing else: a value import of a schema module
 * would put TypeBox into the bundles. Only the plain modules (limits: constants; crypto: SHA-256 and
 * HMAC; fair: the provably fair draw; odds: the per-box odds of the case model; imageHeader: an image's
 * size read from its header bytes; webHosts: the business domains' host rules; invisibleChars: the
 * invisible characters a user name may not hold) may be imported as values.
 * (scripts/check-bundles.js checks the built bundles themselves.)
 */
import fs from 'node:fs'
import path from 'node:path'

const SRC = path.resolve(__dirname, '../../src')
/** Modules of types/ without schema code, which the app may import values from. */
const PLAIN = [
  'limits', 'crypto', 'fair', 'dropCheck', 'kujiCheck', 'raffleCheck', 'odds', 'imageHeader', 'cities', 'webHosts', 'invisibleChars',
  // what types/limits.ts re-exports, by subject
  'limitParts/wire', 'limitParts/account', 'limitParts/shop', 'limitParts/afterDraw', 'limitParts/operators',
  'limitParts/uploads', 'limitParts/community', 'limitParts/helpers'
]

function sources (dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const abs = path.join(dir, e.name)
    return e.isDirectory() ? sources(abs) : /\.(ts|tsx)$/.test(e.name) ? [abs] : []
  })
}

/** Import statements that bring values (not `import type`, not all-`type` specifiers) from types/. */
export function valueImportsFromContract (code: string): string[] {
  const found: string[] = []
  const re = /import\s+(type\s+)?([^'";]*?)\s+from\s+['"]((?:~types|(?:\.\.\/)+types)\/[^'"]+)['"]/g
  for (const m of code.matchAll(re)) {
    const [, typeOnly, clause, from] = m
    if (typeOnly || PLAIN.some(p => new RegExp(`(^|/)${p}$`).test(from))) continue
    const names = clause.replace(/[{}]/g, '').split(',').map(s => s.trim()).filter(Boolean)
    if (names.every(n => n.startsWith('type '))) continue
    found.push(`${clause.replace(/\s+/g, ' ')} from '${from}'`)
  }
  return found
}

test('the detector tells a value import from a type import', () => {
  expect(valueImportsFromContract("import type { A } from '~types/shop'")).toEqual([])
  expect(valueImportsFromContract("import { type A, type B } from '~types/shop'")).toEqual([])
  expect(valueImportsFromContract("import { TOPUP_MIN_CENTS } from '~types/limits'")).toEqual([])
  expect(valueImportsFromContract("import { PurchaseRequest } from '~types/shop'")).toHaveLength(1)
  expect(valueImportsFromContract("import { type A, shopRoutes } from '../../types/shop'")).toHaveLength(1)
})

test('no page, component or service imports schema code from types/', () => {
  const offenders = sources(SRC).flatMap(file =>
    valueImportsFromContract(fs.readFileSync(file, 'utf8')).map(i => `${path.relative(SRC, file)}: ${i}`))
  expect(offenders).toEqual([])
})

test.each(PLAIN)('types/%s.ts stays free of schema code (it imports only other plain modules)', name => {
  const file = path.resolve(__dirname, `../../types/${name}.ts`)
  if (!fs.existsSync(file)) return
  const code = fs.readFileSync(file, 'utf8')
  expect(code).not.toMatch(/from\s+['"]typebox/)
  for (const m of code.matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*from\s+['"]([^'"]+)['"]/gm)) {
    // a plain module's import, from its own folder (types/ or types/limitParts/), as a name of PLAIN
    expect(PLAIN).toContain(path.posix.join(path.posix.dirname(name), m[1]))
  }
})
