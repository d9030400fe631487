/**
 * SCHEMA_CODE_DIR (server/src/http/compilers.ts): the code compiled from the routes' schemas is kept
 * in a folder, one file per schema, and a later start loads it instead of compiling. The answers are
 * the same either way: a bad body refused naming its field, a good one answered in the documented shape.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createTestApp, post, type TestApp } from './support/app'

const listing = (dir: string) => Object.fromEntries(fs.readdirSync(dir).sort().map(f => [f, fs.statSync(path.join(dir, f)).mtimeMs]))

async function answers (t: TestApp) {
  const bad = await post(t.app, '/api/seriesList', { page: 'x', size: 10 })
  const good = await post(t.app, '/api/seriesList', { page: 1, size: 10 })
  return { bad: bad.body, good: { code: good.body.code, keys: Object.keys(good.body.data).sort() } }
}

test('a start keeps the compiled schemas in SCHEMA_CODE_DIR, and the next start loads them and answers alike', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'schema-code-'))
  try {
    const first = await createTestApp('sqlite', { env: { SCHEMA_CODE_DIR: dir } })
    const firstAnswers = await answers(first)
    await first.close()
    const kept = listing(dir)
    const files = Object.keys(kept)
    // a validator (v-) and a serializer (s-) per schema, each a CommonJS module
    expect(files.filter(f => f.startsWith('v-')).length).toBeGreaterThan(50)
    expect(files.filter(f => f.startsWith('s-')).length).toBeGreaterThan(50)
    expect(files.every(f => /^[vs]-[0-9a-f]{32}\.cjs$/.test(f))).toBe(true)
    expect(firstAnswers.bad).toMatchObject({ code: 400, data: { field: 'page' } })
    expect(firstAnswers.good.code).toBe(200)

    // a new process as far as the server's modules go: nothing compiled in memory, everything read from the folder
    let again: Awaited<ReturnType<typeof answers>> | null = null
    await jest.isolateModulesAsync(async () => {
      const { createTestApp: fresh } = await import('./support/app')
      const second = await fresh('sqlite', { env: { SCHEMA_CODE_DIR: dir } })
      again = await answers(second)
      await second.close()
    })
    expect(again).toEqual(firstAnswers)
    // nothing compiled again: the same files, none rewritten
    expect(listing(dir)).toEqual(kept)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
