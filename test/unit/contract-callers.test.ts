/**
 * Every call of the contract (each route of a `...Routes` map in types/) has a caller in the app
 * (issue 24 item 8): a page, component, store or utility of src/ that uses the service function that
 * sends it (or sends it itself). A call only a test reaches is dead weight in the API and untested
 * where it matters.
 * STILL_WITHOUT_CALLER listed the calls issue 24 had not put to use yet; it is empty now, and stays so:
 * a new call comes with its caller.
 */
import fs from 'node:fs'
import path from 'node:path'
import { TextDecoder, TextEncoder } from 'node:util'
import type { RouteDef } from '~types/api'

const root = path.resolve(__dirname, '../..')

/** Calls of the contract that no page uses yet (issue 24: launch events, alt text). */
const STILL_WITHOUT_CALLER: string[] = []
/** Calls for machines, not for the app: a load balancer's and an orchestrator's probes (types/ops.ts). */
// called by probes and Prometheus, not by a page (docs/processes.md, docs/metrics.md)
const FOR_MACHINES = new Set(['GET /healthz', 'GET /readyz', 'GET /metrics'])

function contract (): Array<{ id: string; def: RouteDef }> {
  // typebox needs TextEncoder, which jsdom lacks
  Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? TextEncoder, TextDecoder: globalThis.TextDecoder ?? TextDecoder })
  const dir = path.join(root, 'types')
  const out = new Map<string, { id: string; def: RouteDef }>()
  for (const file of fs.readdirSync(dir).filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort()) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(path.join(dir, file)) as Record<string, unknown>
    for (const [group, routes] of Object.entries(mod)) {
      if (!/Routes$/.test(group) || !routes || typeof routes !== 'object') continue
      for (const def of Object.values(routes as Record<string, RouteDef>)) {
        if (def && typeof def.url === 'string' && typeof def.method === 'string') out.set(`${def.method} ${def.url}`, { id: `${def.method} ${def.url}`, def })
      }
    }
  }
  return [...out.values()]
}

function sources (dir: string): Array<{ file: string; text: string }> {
  const out: Array<{ file: string; text: string }> = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sources(full))
    else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\./.test(entry.name)) out.push({ file: path.relative(root, full), text: fs.readFileSync(full, 'utf8') })
  }
  return out
}

const SRC = sources(path.join(root, 'src'))

/** What a line of a file belongs to: `object.property` of an exported object, else the top-level function or constant. */
function ownerOf (lines: string[], i: number): string | null {
  let prop: string | null = null
  for (let j = i; j >= 0; j--) {
    const top = /^(?:export )?(?:const|let|async function|function|class) (\w+)/.exec(lines[j])
    if (top) {
      const isObject = /^(?:export )?const \w+(?:: [^=]+)? = \{\s*$/.test(lines[j])
      return isObject && prop ? `${top[1]}.${prop}` : top[1]
    }
    if (/^\S/.test(lines[j]) && j !== i) return null
    const p = /^ {2}(?:async )?(\w+)\s*[:(]/.exec(lines[j])
    if (p && prop === null) prop = p[1]
  }
  return null
}

const escape = (text: string) => text.replace(/[/.?*+^$()[\]|{}]/g, c => `\\${c}`)

/** The lines of src/ that send `url` (a path parameter is sent as a template: `/api/${name}`). */
function sendingLines (url: string): Array<{ file: string; lines: string[]; i: number }> {
  const pattern = /:\w+|\{\w+\}/.test(url)
    ? new RegExp(`\`${url.split(/:\w+|\{\w+\}/).map(escape).join('\\$\\{[^}]+\\}')}[\`?]`)
    : new RegExp(`['\`]${escape(url)}(?:['\`?]|\\$\\{)`)
  const out: Array<{ file: string; lines: string[]; i: number }> = []
  for (const { file, text } of SRC) {
    const lines = text.split('\n')
    lines.forEach((line, i) => { if (pattern.test(line) && !/^\s*(\*|\/\/)/.test(line)) out.push({ file, lines, i }) })
  }
  return out
}

/**
 * Whether a line is reached from outside src/services: its owner (a service function, a helper, a
 * constant) is used in another file, or in its own file by an owner that is (a few steps deep).
 */
function reached (file: string, lines: string[], i: number, depth = 0): boolean {
  if (!file.startsWith(`src${path.sep}services`)) return true
  const owner = ownerOf(lines, i)
  if (!owner || depth > 4) return false
  const use = new RegExp(`(?<![\\w.])${escape(owner)}\\b`)
  if (SRC.some(s => s.file !== file && use.test(s.text))) return true
  const member = owner.includes('.') ? owner.split('.')[1] : null
  return lines.some((line, j) => j !== i && ownerOf(lines, j) !== owner &&
    (use.test(line) || (member !== null && new RegExp(`\\b(?:this\\.)?${member}\\(`).test(line))) &&
    reached(file, lines, j, depth + 1))
}

function hasCaller (url: string): boolean {
  return sendingLines(url).some(({ file, lines, i }) => reached(file, lines, i))
}

test('every call of the contract has a caller in src/ outside its service', () => {
  const calls = contract()
  expect(calls.length).toBeGreaterThan(100)
  const without = calls.filter(c => !FOR_MACHINES.has(c.id) && !hasCaller(c.def.url)).map(c => c.id).sort()
  expect(without).toEqual([...STILL_WITHOUT_CALLER].sort())
})

test('the check finds a caller where there is one and none where there is none', () => {
  expect(hasCaller('/api/pickupPoints')).toBe(true)
  expect(hasCaller('/api/no/such/call')).toBe(false)
})
