/**
 * The app's import rules (boundaries/app.cjs, checked by scripts/check-boundaries.mjs): each rule fails
 * the check when one violating import is planted in a small tree laid out like the repository, the
 * same tree without the plant passes (the real tree is npm test's own step, scripts/check-boundaries.mjs).
 * check-boundaries.mjs is an ES module (Jest here runs CommonJS), so it runs in a child node process; the
 * suite keeps the default jsdom environment, which test/setup/after-env.js needs.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const REPO = path.resolve(__dirname, '../..')
const CHECK = path.join(REPO, 'scripts', 'check-boundaries.mjs')

interface Violation { area: string; rule: string; from: string; to: string }

/** The app rules' violations of each tree, in one child process. */
function check (roots: string[]): Violation[][] {
  const code = `import { checkBoundaries } from ${JSON.stringify(CHECK)}
const out = []
for (const root of JSON.parse(process.argv[1])) out.push(await checkBoundaries(root, ['app']))
process.stdout.write(JSON.stringify(out))`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code, JSON.stringify(roots)], { cwd: REPO, encoding: 'utf8' })
  if (run.status !== 0) throw new Error(run.stderr)
  return JSON.parse(run.stdout) as Violation[][]
}

/** A tree that keeps every rule: two page packages, shared code, the contract, a server and a test file. */
const CLEAN: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['src/*'], '~types/*': ['types/*'] } } }),
  'types/shop.ts': 'export interface Series { id: number }\n',
  'server/main.ts': "import type { Series } from '../types/shop'\nexport const s: Series = { id: 1 }\n",
  'test/helper.ts': 'export const helper = 1\n',
  'src/utils/format.ts': "import type { Series } from '~types/shop'\nexport const label = (s: Series) => String(s.id)\n",
  'src/components/Card/index.ts': "import { label } from '@/utils/format'\nexport default label\n",
  'src/services/shop.ts': "import type { Series } from '~types/shop'\nexport const get = (): Series => ({ id: 1 })\n",
  'src/stores/session.ts': "import { get } from '@/services/shop'\nexport const session = get()\n",
  'src/pages/login/index.ts': "import { session } from '@/stores/session'\nimport { own } from './own'\nexport default [session, own]\n",
  'src/pages/login/own.ts': 'export const own = 1\n',
  'src/pagesA/editor/index.ts': "import Card from '@/components/Card'\nimport { PhotoButton } from './PhotoButton'\nexport default [Card, PhotoButton]\n",
  'src/pagesA/editor/PhotoButton.ts': 'export const PhotoButton = 1\n',
  'src/pagesA/profile/index.ts': "import { label } from '../../utils/format'\nexport default label\n"
}

/** One violating import per rule: [rule, file, its new text]. Type-only imports count. */
const PLANTS: Array<[string, string, string]> = [
  ['no-page-imports-page', 'src/pagesA/profile/index.ts', "import type { PhotoButton } from '../editor/PhotoButton'\nexport type P = typeof PhotoButton\n"],
  ['no-page-imports-page', 'src/pages/login/own.ts', "import { PhotoButton } from '@/pagesA/editor/PhotoButton'\nexport const own = PhotoButton\n"],
  ['shared-never-imports-pages', 'src/utils/format.ts', "import { own } from '@/pages/login/own'\nexport const label = () => own\n"],
  ['shared-never-imports-pages', 'src/components/Card/index.ts', "import type { PhotoButton } from '../../pagesA/editor/PhotoButton'\nexport type C = typeof PhotoButton\n"],
  ['app-not-server', 'src/services/shop.ts', "import { s } from '../../server/main'\nexport const get = () => s\n"],
  ['app-types-from-types', 'src/stores/session.ts', "import { helper } from '../../test/helper'\nexport const session = helper\n"],
  ['no-circles', 'src/services/shop.ts', "import type { session } from '@/stores/session'\nexport const get = (): typeof session => ({ id: 1 })\n"]
]

const made: string[] = []
function tree (plant?: [string, string]): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'boundaries-app-'))
  made.push(root)
  const files = { ...CLEAN, ...(plant ? { [plant[0]]: plant[1] } : {}) }
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true })
    fs.writeFileSync(path.join(root, rel), text)
  }
  return root
}
afterAll(() => { for (const root of made) fs.rmSync(root, { recursive: true, force: true }) })

jest.setTimeout(300_000)

test('each planted violation fails the app rules, naming its rule; the tree without it passes', () => {
  const roots = [tree(), ...PLANTS.map(([, file, text]) => tree([file, text]))]
  const [clean, ...planted] = check(roots)
  expect(clean).toEqual([])
  PLANTS.forEach(([rule, file], i) => {
    expect({ file, rules: [...new Set(planted[i].map(v => v.rule))] }).toEqual({ file, rules: [rule] })
    expect(planted[i].every(v => v.area === 'app')).toBe(true)
    expect(planted[i].map(v => v.from)).toContain(file)
  })
})

test('the command line exits 1 and names the rule and the import', () => {
  const root = tree(PLANTS[0].slice(1) as [string, string])
  const run = spawnSync(process.execPath, [CHECK, '--root', root], { cwd: REPO, encoding: 'utf8' })
  expect(run.status).toBe(1)
  expect(run.stderr).toContain('[app] no-page-imports-page: src/pagesA/profile/index.ts → src/pagesA/editor/PhotoButton.ts')
})

// the real tree keeps the app rules: npm test's own step "import boundaries (dependency-cruiser)" checks it
