#!/usr/bin/env node
/**
 * The import rules of the house (docs/architecture.md), checked with dependency-cruiser.
 *
 * Each file boundaries/<area>.cjs exports { roots, tsConfig, forbidden }: the folders it scans (relative
 * to the repository), the tsconfig that resolves its imports, and dependency-cruiser `forbidden` rules.
 * Type-only imports count (tsPreCompilationDeps). Exits 1 and names rule, importer and imported file on
 * any violation. `node scripts/check-boundaries.mjs --root <dir>` checks another tree laid out the same
 * way (the planted-violation tests use it).
 */
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { cruise } from 'dependency-cruiser'
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config'

const require = createRequire(import.meta.url)
const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')

export async function checkBoundaries (root = repo, only) {
  const dir = path.join(repo, 'boundaries')
  const areas = fs.readdirSync(dir).filter(f => f.endsWith('.cjs') && (!only || only.includes(path.basename(f, '.cjs'))))
  const violations = []
  const cwd = process.cwd()
  process.chdir(root)
  try {
    for (const file of areas) {
      const area = require(path.join(dir, file))
      const roots = area.roots.filter(r => fs.existsSync(path.join(root, r)))
      if (!roots.length) continue
      const tsConfigFile = path.join(root, area.tsConfig)
      const result = await cruise(roots, {
        validate: true,
        ruleSet: { forbidden: area.forbidden },
        tsPreCompilationDeps: true,
        tsConfig: { fileName: tsConfigFile },
        doNotFollow: { path: 'node_modules' },
        exclude: { path: area.exclude ?? '(^|/)node_modules/' },
        moduleSystems: ['es6', 'cjs'],
        extensions: ['.ts', '.tsx', '.js', '.cjs', '.mjs', '.json']
      }, undefined, { tsConfig: extractTSConfig(tsConfigFile) })
      for (const v of result.output.summary.violations) {
        violations.push({ area: path.basename(file, '.cjs'), rule: v.rule.name, from: v.from, to: v.to, cycle: v.cycle?.map(c => c.name ?? c) })
      }
    }
  } finally {
    process.chdir(cwd)
  }
  return violations
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const i = process.argv.indexOf('--root')
  const root = i > 0 ? path.resolve(process.argv[i + 1]) : repo
  const violations = await checkBoundaries(root)
  for (const v of violations) {
    console.error(`✗ [${v.area}] ${v.rule}: ${v.from} → ${v.to}${v.cycle?.length ? `  (circle: ${v.cycle.join(' → ')})` : ''}`)
  }
  if (violations.length) {
    console.error(`\n${violations.length} import rule violation(s); the rules are in boundaries/*.cjs and docs/architecture.md`)
    process.exit(1)
  }
  console.log('import rules hold (boundaries/*.cjs)')
}
