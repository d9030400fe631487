/**
 * Shared components' styles are extracted into shared chunks (weapp: common, pagesA/sub-vendors; H5:
 * pages-common...), where mini-css-extract-plugin needs one order of their CSS that suits every page.
 * When one page imports Section before EmptyState and another EmptyState before Section, no order
 * suits both and the build warns "Conflicting order" (which rule wins then depends on the chunk). This
 * reads every page's imports of src/components (with the components' own imports of each other and the
 * page's own modules, e.g. the editor's tabs, depth first, as webpack visits them) and fails when two
 * pages want two components in opposite orders.
 */
import fs from 'node:fs'
import path from 'node:path'

const SRC = path.resolve(__dirname, '..', '..', 'src')
/** A module's imports in order: shared components by name, the page's own modules (./X) by file. */
function importsOf (file: string): Array<{ component: string } | { file: string }> {
  const out: Array<{ component: string } | { file: string }> = []
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/^import [^;]*? from '(@\/components\/[A-Za-z]+|\.\/[A-Za-z]+)'/gm)) {
    if (m[1].startsWith('@/')) { out.push({ component: m[1].slice('@/components/'.length) }); continue }
    const own = ['.tsx', '.ts'].map(ext => path.join(path.dirname(file), m[1] + ext)).find(f => fs.existsSync(f))
    if (own) out.push({ file: own })
  }
  return out
}

const componentEntry = (name: string) => ['index.tsx', 'index.ts'].map(f => path.join(SRC, 'components', name, f)).find(f => fs.existsSync(f))

/** The components in the order webpack meets their styles, depth first: each import's own components, then itself. */
function styleOrder (file: string, seen = new Set<string>()): string[] {
  const out: string[] = []
  for (const imp of importsOf(file)) {
    const key = 'component' in imp ? imp.component : imp.file
    if (seen.has(key)) continue
    seen.add(key)
    if ('file' in imp) { out.push(...styleOrder(imp.file, seen)); continue }
    const entry = componentEntry(imp.component)
    if (entry) out.push(...styleOrder(entry, seen))
    out.push(imp.component)
  }
  return out
}

test('every page imports shared components in one consistent order (no "Conflicting order" in the CSS chunks)', () => {
  const pages = ['pages', 'pagesA'].flatMap(pkg => fs.readdirSync(path.join(SRC, pkg)).map(p => path.join(SRC, pkg, p, 'index.tsx'))).filter(f => fs.existsSync(f))
  expect(pages.length).toBeGreaterThanOrEqual(16)
  const before = new Map<string, string>() // "A<B" -> the page that wants A before B
  const conflicts: string[] = []
  for (const page of pages) {
    const order = styleOrder(page)
    for (let i = 0; i < order.length; i++) {
      for (let j = i + 1; j < order.length; j++) {
        const [a, b] = [order[i], order[j]]
        const other = before.get(`${b}<${a}`)
        if (other) conflicts.push(`${path.relative(SRC, page)} wants ${a} before ${b}, ${other} the other way round`)
        if (!before.has(`${a}<${b}`)) before.set(`${a}<${b}`, path.relative(SRC, page))
      }
    }
  }
  expect(conflicts).toEqual([])
})
