/**
 * No prize is assigned by hand (docs/security.md): a prize comes into being only from a box bought (the
 * design the case committed to for that slot, domain/purchase/purchase.ts and shop_purchase, migration
 * 0026 and its replacements; a kuji set's Last One with its final ticket), from a combine draw
 * (domain/prizes/combine.ts) or a kuji set's Double Chance draw (domain/catalogue/kuji.ts), and no statement gives a
 * prize to another account. This reads the server's source for every statement that could: a new one
 * (an operator's "grant a prize", a transfer) fails here and has to be argued for.
 */
import fs from 'node:fs'
import path from 'node:path'
import { DATA_METHODS } from '../../types/data'

const src = path.resolve(__dirname, '../../server/src')
function files (dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? files(full) : /\.ts$/.test(e.name) ? [full] : []
  })
}
const rel = (f: string) => path.relative(src, f)
const sources = files(src).map(f => ({ file: rel(f), text: fs.readFileSync(f, 'utf8') }))
const where = (pattern: RegExp) => sources.filter(s => pattern.test(s.text)).map(s => s.file).sort()

test('prizes are made only by a purchase, a combine draw and a kuji set\'s Double Chance draw', () => {
  // kuji.ts: the Double Chance, drawn at a set's sell-out from a seed committed with the set (docs/decisions/kuji.md)
  expect(where(/insertInto\(\s*'prizes'\s*\)/)).toEqual(['domain/catalogue/kuji.ts', 'domain/prizes/combine.ts', 'domain/purchase/purchase.ts'])
  // in SQL: the purchase's own function (made by migration 0026; later ones replace its text)
  expect(where(/insert\s+into\s+"?prizes"?\s*\(/i)).toEqual(['db/migrations/0026_purchase_function.ts'])
})

test('no statement hands a prize to another account', () => {
  // a prize's owner is written when it is made, never changed
  expect(sources.filter(s => /updateTable\(\s*'prizes'\s*\)[\s\S]{0,200}?user_id\s*:/.test(s.text)).map(s => s.file)).toEqual([])
  expect(where(/update\s+"?prizes"?\s+set[^;]*\buser_id\s*=/i)).toEqual([])
})

test('the generic table API only reads prizes (and cases: a case is made and committed by the shop alone)', () => {
  expect([...DATA_METHODS.prizes].sort()).toEqual(['get', 'list', 'page'])
  expect([...DATA_METHODS.cases].sort()).toEqual(['get', 'list', 'page'])
})
