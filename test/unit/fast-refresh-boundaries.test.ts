/**
 * React Fast Refresh (npm run dev) updates a module in place only when everything it exports is a React
 * component; a module that also exports a function or a constant makes every edit of it reload the page
 * and lose its state. So each .tsx module of the app exports components only (names in PascalCase,
 * types aside); helpers and constants live in a .ts module beside it.
 * https://github.com/facebook/react/issues/16604#issuecomment-528663101 (how React decides a boundary)
 */
import fs from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

const SRC = path.resolve(__dirname, '../../src')

function tsxFiles (dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name)
    return e.isDirectory() ? tsxFiles(p) : e.name.endsWith('.tsx') ? [p] : []
  })
}

/** The names of the values a module exports (types and interfaces are erased and do not count). */
function exportedValues (file: string): string[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const names: string[] = []
  const exported = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) || []).some(m => m.kind === ts.SyntaxKind.ExportKeyword)
  const isDefault = (node: ts.Node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) || []).some(m => m.kind === ts.SyntaxKind.DefaultKeyword)
  for (const node of source.statements) {
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && exported(node) && !isDefault(node)) names.push(node.name?.text || '?')
    if (ts.isVariableStatement(node) && exported(node)) for (const d of node.declarationList.declarations) names.push(d.name.getText(source))
    if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.exportClause && ts.isNamedExports(node.exportClause)) {
      for (const e of node.exportClause.elements) if (!e.isTypeOnly) names.push(e.name.text)
    }
  }
  return names
}

const isComponentName = (name: string) => /^[A-Z][a-z0-9]+([A-Z][a-z0-9]*)*$/.test(name)

test('every .tsx module of the app exports React components only', () => {
  const offenders = tsxFiles(SRC)
    .map(file => ({ file: path.relative(SRC, file), names: exportedValues(file).filter(n => !isComponentName(n)) }))
    .filter(o => o.names.length)
  expect(offenders).toEqual([])
})

test('the check sees a helper beside a component, and passes components alone', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'refresh-'))
  const mixed = path.join(dir, 'Mixed.tsx')
  fs.writeFileSync(mixed, 'export function helper () { return 1 }\nexport const LIMIT = 3\nexport function Card () { return null }\nexport type T = number\nexport default function Page () { return null }\n')
  expect(exportedValues(mixed).filter(n => !isComponentName(n))).toEqual(['helper', 'LIMIT'])
  fs.rmSync(dir, { recursive: true, force: true })
})
