// The server's import rules (boundaries/server.cjs): each rule fails on a planted violation in a small
// tree laid out like server/src. The real tree is npm test's own step (scripts/check-boundaries.mjs).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const repo = path.resolve(__dirname, '../..')

interface Violation { rule: string; from: string; to: string }

/** checkBoundaries(root, ['server']) of scripts/check-boundaries.mjs (ESM), run in a node of its own. */
function serverViolations (root: string): Violation[] {
  const script = path.join(repo, 'scripts/check-boundaries.mjs')
  const code = `import { checkBoundaries } from ${JSON.stringify(script)}
console.log(JSON.stringify(await checkBoundaries(${JSON.stringify(root)}, ['server'])))`
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', code], { cwd: repo, encoding: 'utf8' })
  return JSON.parse(out.trim().split('\n').pop() as string)
}

const planted: Record<string, string> = {
  'server/tsconfig.json': JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'bundler', noEmit: true }, include: ['src'] }),
  'server/src/context.ts': 'export const context = 1\n',
  'server/src/i18n/messages.ts': 'export type MessageKey = string\n',
  // core-is-a-leaf and core-config-not-above: core reaches db
  'server/src/core/errors.ts': "import type { MessageKey } from '../i18n/messages'\nimport { row } from '../db/rows'\nexport const key: MessageKey = String(row)\n",
  // config-is-a-leaf and core-config-not-above: config reaches a provider
  'server/src/config/index.ts': "import { send } from '../providers/sms'\nexport const config = { send }\n",
  'server/src/providers/sms.ts': 'export const send = 1\n',
  // base-not-above: db reaches the domain
  'server/src/db/rows.ts': "import { wallet } from '../domain/money/wallet'\nexport const row = wallet\n",
  // domain-not-web: the domain reaches the context
  'server/src/domain/money/wallet.ts': "import { context } from '../../context'\nexport const wallet = context\n",
  // domain-not-fastify: the domain names Fastify's logger
  'server/src/domain/money/payments.ts': "import type { FastifyBaseLogger } from 'fastify'\nexport type Log = FastifyBaseLogger\n",
  // no-circles: two domain files import each other
  'server/src/domain/money/ledger.ts': "import { order } from './orders'\nexport const ledger = () => order\n",
  'server/src/domain/money/orders.ts': "import { ledger } from './ledger'\nexport const order = () => ledger\n",
  // routes-not-routes and server-not-app
  'server/src/routes/wallet.ts': "import { orders } from './orders'\nexport const wallet = orders\n",
  'server/src/routes/orders.ts': "import { page } from '../../../src/pages/index'\nexport const orders = page\n",
  'src/pages/index.ts': 'export const page = 1\n'
}

const RULES = ['no-circles', 'domain-not-web', 'domain-not-fastify', 'routes-not-routes', 'core-is-a-leaf', 'config-is-a-leaf', 'base-not-above', 'core-config-not-above', 'server-not-app']

describe('server import rules', () => {
  let root: string
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-server-'))
    for (const [file, text] of Object.entries(planted)) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
      fs.writeFileSync(path.join(root, file), text)
    }
  })
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

  it('names every rule a planted import breaks, at the planted import', () => {
    const found = serverViolations(root)
    const pairs = (rule: string) => found.filter(v => v.rule === rule).map(v => `${v.from} -> ${v.to}`)
    expect(pairs('no-circles')).toEqual(expect.arrayContaining([expect.stringMatching(/^server\/src\/domain\/money\/(ledger|orders)\.ts -> /)]))
    expect(pairs('domain-not-web')).toEqual(['server/src/domain/money/wallet.ts -> server/src/context.ts'])
    expect(pairs('domain-not-fastify')).toEqual(['server/src/domain/money/payments.ts -> fastify'])
    expect(pairs('routes-not-routes')).toEqual(['server/src/routes/wallet.ts -> server/src/routes/orders.ts'])
    expect(pairs('core-is-a-leaf')).toEqual(['server/src/core/errors.ts -> server/src/db/rows.ts'])
    expect(pairs('config-is-a-leaf')).toEqual(['server/src/config/index.ts -> server/src/providers/sms.ts'])
    expect(pairs('base-not-above')).toEqual(['server/src/db/rows.ts -> server/src/domain/money/wallet.ts'])
    expect(pairs('core-config-not-above')).toEqual(expect.arrayContaining(['server/src/core/errors.ts -> server/src/db/rows.ts', 'server/src/config/index.ts -> server/src/providers/sms.ts']))
    expect(pairs('server-not-app')).toEqual(['server/src/routes/orders.ts -> src/pages/index.ts'])
    expect([...new Set(found.map(v => v.rule))].sort()).toEqual([...RULES].sort())
  }, 120_000)
  // the real tree: npm test's own step "import boundaries (dependency-cruiser)" checks it
})
