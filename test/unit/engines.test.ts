/**
 * The Node versions agree (issue 48: `npm install` warned that cookie@2.0.2 needs Node >= 22 while
 * package.json says >= 20, and CI runs Node 20): every package the lock file installs runs on some Node
 * the project's engines allow. light-my-request 6.8 (fastify's inject) brought cookie 2; package.json
 * "overrides" holds it at 6.6.0 (cookie 1, Node >= 18) until the project moves to Node 22.
 */
import fs from 'node:fs'
import path from 'node:path'
// semver ships no types (and @types/semver is not a dependency): the two functions used here
// eslint-disable-next-line @typescript-eslint/no-require-imports
const semver = require('semver') as { minVersion: (range: string) => { major: number } | null; intersects: (a: string, b: string) => boolean }

const root = path.resolve(__dirname, '../..')
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }
const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; engines?: unknown }> }

test('every locked package runs on the Node that package.json allows (the oldest major of it)', () => {
  const ours = pkg.engines.node
  const oldestMajor = `^${semver.minVersion(ours)!.major}`
  const refused = Object.entries(lock.packages)
    .map(([where, p]) => ({ where, version: p.version, node: p.engines && typeof p.engines === 'object' && !Array.isArray(p.engines) ? (p.engines as { node?: string }).node : undefined }))
    .filter(p => p.node && !semver.intersects(p.node, oldestMajor))
  expect(refused).toEqual([])
})
