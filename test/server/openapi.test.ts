/**
 * The OpenAPI document is generated from the routes: every API route the server registers is in it,
 * every call of the contract (types/) is registered, and each operation carries its request and
 * answer schemas. The docs page exists outside production only.
 *
 * It is valid OpenAPI 3.1 for a standard validator (@apidevtools/swagger-parser), every schema in it is
 * JSON Schema 2020-12 (Ajv), and the TypeScript client openapi-typescript generates from it has, for every
 * call, the request and answer types of the contract itself (checked with the TypeScript compiler).
 */
import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { promisify } from 'node:util'
import SwaggerParser from '@apidevtools/swagger-parser'
import Ajv from 'ajv'
import Ajv2020 from 'ajv/dist/2020'
import addFormats from 'ajv-formats'
import ts from 'typescript'
import { DrivingRoute } from '../../types/geo'
import { OcrWord } from '../../types/vision'
import type { RouteDef } from '../../types/api'
import Fastify from 'fastify'
import { Type } from 'typebox'
import { route } from '../../types/api'
import { Obj } from '../../types/schema'
import { registeredRoutes } from '../../server/src/http/openapi'
import { defineRoute } from '../../server/src/http/route'
import type { Api, AppContext } from '../../server/src/context'
import { createTestApp, PREFIX, type TestApp } from './support/app'

interface Operation {
  summary?: string
  tags?: string[]
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> }
  parameters?: Array<{ in: string; name: string; required?: boolean }>
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>
  security?: unknown[]
}
interface Doc { openapi: string; paths: Record<string, Record<string, Operation>> }

async function documentOf (t: TestApp): Promise<Doc> {
  const res = await t.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })
  expect(res.statusCode).toBe(200)
  return res.json() as Doc
}

/** Fastify writes path parameters as :name, OpenAPI as {name}. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')

const TYPES_DIR = resolve(__dirname, '../../types')

/** Every call of the contract: each `...Routes` map exported by a module of types/. */
function contractCalls (): Array<{ module: string; map: string; call: string; def: RouteDef }> {
  const calls: Array<{ module: string; map: string; call: string; def: RouteDef }> = []
  for (const file of readdirSync(TYPES_DIR).filter(f => f.endsWith('.ts') && !f.endsWith('.d.ts')).sort()) {
    const module = basename(file, '.ts')
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const exports = require(join(TYPES_DIR, file)) as Record<string, unknown>
    for (const [map, routes] of Object.entries(exports)) {
      if (!/Routes$/.test(map) || typeof routes !== 'object' || routes === null) continue
      for (const [call, def] of Object.entries(routes as Record<string, RouteDef>)) calls.push({ module, map, call, def })
    }
  }
  return calls
}

const CONTRACT = contractCalls()

/** Every schema of the document, with where it is. */
function schemasOf (doc: Doc): Array<[string, unknown]> {
  const found: Array<[string, unknown]> = []
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const p of op.parameters ?? []) found.push([`${method} ${path} parameter ${p.name}`, (p as { schema?: unknown }).schema])
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) found.push([`${method} ${path} request ${type}`, media.schema])
      for (const [status, answer] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries(answer.content ?? {})) found.push([`${method} ${path} ${status} ${type}`, media.schema])
      }
    }
  }
  const components = (doc as unknown as { components?: { schemas?: Record<string, unknown> } }).components
  for (const [name, schema] of Object.entries(components?.schemas ?? {})) found.push([`components/schemas/${name}`, schema])
  return found
}

/** Ajv for JSON Schema 2020-12, strict (an unknown keyword or format is an error), with OpenAPI's formats. */
function ajv2020 (): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  addFormats(ajv)
  // the annotations the OpenAPI 3.1 dialect adds to JSON Schema
  ajv.addVocabulary(['example', 'discriminator', 'xml', 'externalDocs'])
  return ajv
}

/** The schemas that Ajv (2020-12, strict) refuses to compile, with the reason. */
function rejectedBy2020 (schemas: Array<[string, unknown]>): string[] {
  const ajv = ajv2020()
  const rejected: string[] = []
  for (const [where, schema] of schemas) {
    try { ajv.compile(schema as object) } catch (error) { rejected.push(`${where}: ${(error as Error).message}`) }
  }
  return rejected
}

/**
 * A TypeScript file that, for every call of the contract, assigns the generated client's request and answer
 * types (`paths` of openapi-typescript) to the contract's own (BodyOf, QueryOf, DataOf) and back: any
 * difference is a compile error. A few assignments that must fail (@ts-expect-error) show the generated
 * types are precise (a tuple is a tuple, a required field is required), not `any`.
 */
function clientCheck (calls: ReturnType<typeof contractCalls>): string {
  const lines = [
    "import type { paths } from './openapi'",
    `import type { BodyOf, DataOf, QueryOf } from '${TYPES_DIR}/api'`,
    `import type { Static } from '${resolve(__dirname, '../../node_modules/typebox')}'`,
    "type Json<C> = C extends { content: { 'application/json': infer T } } ? T : never",
    'type Req<O> = O extends { requestBody?: infer B } ? Json<NonNullable<B>> : never',
    'type Res<O> = O extends { responses: { 200: infer R } } ? Json<R> extends { data: infer D } ? D : never : never',
    'type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never',
    'type Params<O> = O extends { parameters: { path?: infer P } } ? NonNullable<P> : never',
    '/** false for `any` and `never`, which every assignment would let through one way or the other */',
    'type Proper<T> = 0 extends 1 & T ? false : [T] extends [never] ? false : true',
    'declare function value<T> (): T'
  ]
  const imported = new Set<string>()
  for (const { module, map, call, def } of calls) {
    const routes = `${module}_${map}`
    if (!imported.has(routes)) lines.push(`import { ${map} as ${routes} } from '${TYPES_DIR}/${module}'`)
    imported.add(routes)
    const id = `${routes}_${call}`
    const own = `typeof ${routes}.${call}`
    lines.push('', `// ${def.method} ${def.url}`, `type ${id} = paths['${PREFIX}${openApiPath(def.url)}']['${def.method.toLowerCase()}']`)
    const pair = (part: string, generated: string, contract: string, bothWays = true) => {
      lines.push(`export const ${id}_${part}_proper: Proper<${generated}> & Proper<${contract}> = true`)
      lines.push(`export const ${id}_${part}_in: ${contract} = value<${generated}>()`)
      // TypeBox types an object without properties as `object`: the document (and the server) say more
      if (bothWays) lines.push(`export const ${id}_${part}_out: ${generated} = value<${contract}>()`)
    }
    if (!def.raw) pair('data', `Res<${id}>`, `DataOf<${own}>`)
    if (def.body && !def.upload) {
      const properties = (def.body as { properties?: object }).properties
      pair('body', `Req<${id}>`, `BodyOf<${own}>`, Object.keys(properties ?? {}).length > 0)
    }
    if (def.querystring) pair('query', `Query<${id}>`, `QueryOf<${own}>`)
    if (def.params) pair('params', `Params<${id}>`, `Static<${own}['params']>`)
  }
  lines.push('',
    `type Driving = Res<paths['${PREFIX}/api/driving']['post']>`,
    `type Ocr = Res<paths['${PREFIX}/api/ocr']['post']>`,
    `type Purchase = Req<paths['${PREFIX}/api/casePurchase']['post']>`,
    "export const pair: Driving['steps'][number]['polylineIdx'] = [0, 1]",
    '// @ts-expect-error a list of numbers is not a pair',
    "export const notPair: Driving['steps'][number]['polylineIdx'] = value<number[]>()",
    '// @ts-expect-error a box has four numbers',
    "export const box3: Ocr['lines'][number]['words'][number]['box'] = [1, 2, 3]",
    '// @ts-expect-error a purchase names its case',
    'export const noCase: Purchase = value<Omit<Purchase, \'caseId\'>>()'
  )
  return lines.join('\n') + '\n'
}

/** The compile errors of one file (and only of it: the contract's own files are tsc's business). */
function typeErrors (file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts'],
    types: []
  })
  const source = program.getSourceFile(file)!
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
  // the line of the check file (it is deleted afterwards), then the compiler's message
  return diagnostics.map(d => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1
    const text = line >= 0 ? d.file!.text.split('\n')[line].slice(0, 200) : ''
    return `${text}\n  ${ts.flattenDiagnosticMessageText(d.messageText, '\n').slice(0, 1500)}`
  })
}

/** What @apidevtools/swagger-parser finds wrong with a document (it reads a copy: it dereferences in place). */
async function validatorErrors (doc: unknown): Promise<unknown[]> {
  return SwaggerParser.validate(structuredClone(doc) as never).then(
    () => [],
    (error: Error & { details?: unknown[] }) => error.details ?? [error.message]
  )
}

describe('the OpenAPI document', () => {
  let t: TestApp
  let doc: Doc
  beforeAll(async () => {
    t = await createTestApp('sqlite')
    doc = await documentOf(t)
  })
  afterAll(async () => { await t.close() })

  test('is OpenAPI 3 and lists every API route the server registered, with its method', () => {
    expect(doc.openapi).toMatch(/^3\./)
    const api = registeredRoutes(t.app).filter(r => r.url.startsWith(`${PREFIX}/`) && r.method !== 'HEAD')
    // the document itself and the docs page are not calls of the API
    const calls = api.filter(r => r.url !== `${PREFIX}/openapi.json` && !r.url.startsWith(`${PREFIX}/docs`))
    expect(calls.length).toBeGreaterThanOrEqual(CONTRACT.length)
    const missing = calls.filter(r => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()])
    expect(missing).toEqual([])
    expect(calls.filter(r => !r.documented)).toEqual([])
  })

  test('every call of the contract is registered and documented with its schemas', () => {
    // the contract is every `...Routes` map of types/ (these among them)
    const maps = new Set(CONTRACT.map(c => `${c.module}.${c.map}`))
    for (const map of ['accounts.accountRoutes', 'shop.shopRoutes', 'shop.orderRoutes', 'data.dataRoutes', 'geo.geoRoutes', 'vision.visionRoutes', 'withdraw.withdrawRoutes']) {
      expect(maps).toContain(map)
    }
    for (const { module, map, call, def } of CONTRACT) {
      const name = `${module}.${map}.${call}`
      const op = doc.paths[`${PREFIX}${openApiPath(def.url)}`]?.[def.method.toLowerCase()]
      if (!op) throw new Error(`${name} (${def.method} ${def.url}) is not in the document`)
      expect(op.summary).toBe(def.summary)
      expect(op.tags).toEqual([def.tag])
      if (def.body) expect(op.requestBody?.content['application/json'].schema).toBeDefined()
      if (def.querystring) {
        const names = Object.keys((def.querystring as { properties: object }).properties)
        expect(op.parameters?.filter(p => p.in === 'query').map(p => p.name).sort()).toEqual(names.sort())
      }
      if (def.raw) {
        expect(op.responses['200']?.content?.[def.raw.contentType]).toBeDefined()
      } else {
        const answer = op.responses['200']?.content?.['application/json']?.schema as { properties?: Record<string, unknown> } | undefined
        expect(answer?.properties && Object.keys(answer.properties).sort()).toEqual(['code', 'data', 'message'])
      }
      if (def.auth === 'user' || def.auth === 'operator') expect(op.security).toEqual([{ bearer: [] }])
    }
    // and the document has no call from elsewhere: one contract (but WeChat Pay's notification, whose body
    // WeChat Pay defines: server/src/routes/orders.ts)
    const declared = new Set(CONTRACT.map(({ def }) => `${def.method.toLowerCase()} ${PREFIX}${openApiPath(def.url)}`))
    declared.add(`post ${PREFIX}/generalOrder/notify/wechat`)
    const documented = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item).map(method => `${method} ${path}`))
    expect(documented.filter(op => !declared.has(op))).toEqual([])
  })

  test('the rows of the table API are documented as components', () => {
    const schemas = (doc as unknown as { components: { schemas: Record<string, { properties: object }> } }).components.schemas
    for (const table of ['series', 'designs', 'cases', 'addresses', 'prizes']) {
      expect(Object.keys(schemas[`DataRow_${table}`].properties)).toContain('id')
    }
  })

  test('is valid OpenAPI 3.1 for a standard validator (@apidevtools/swagger-parser)', async () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(await validatorErrors(doc)).toEqual([])
    // the validator is not blind: the same document announced as OpenAPI 3.0 (which has no `type: 'null'`
    // nor tuples) is refused, as the 3.0 document served before was (1,725 errors)
    expect((await validatorErrors({ ...doc, openapi: '3.0.3' })).length).toBeGreaterThan(100)
  })

  test('every schema in it is JSON Schema 2020-12 (Ajv, strict)', () => {
    // swagger-parser checks a 3.1 schema only for being an object: the schemas are compiled here
    const schemas = schemasOf(doc)
    expect(schemas.length).toBeGreaterThan(Object.keys(doc.paths).length)
    expect(rejectedBy2020(schemas)).toEqual([])
    // and the check is not blind: the contract's own (draft-07) tuple is not 2020-12
    expect(rejectedBy2020([['DrivingRoute as written', DrivingRoute]])).toEqual([expect.stringContaining('must be object,boolean')])
  })

  test('its tuples accept exactly the arrays the contract accepts, and the server\'s schemas are not rewritten', () => {
    type Schema = { properties: Record<string, Schema>; items: Schema }
    const data = (path: string) => (doc.paths[`${PREFIX}${path}`].post.responses['200'].content?.['application/json'].schema as unknown as Schema).properties.data
    const polylineIdx = data('/api/driving').properties.steps.items.properties.polylineIdx
    expect(polylineIdx).toEqual({ type: 'array', prefixItems: [{ type: 'integer', minimum: 0 }, { type: 'integer', minimum: 0 }], items: false, minItems: 2 })
    const box = data('/api/ocr').properties.lines.items.properties.words.items.properties.box
    expect(box).toMatchObject({ type: 'array', prefixItems: [{ type: 'integer' }, { type: 'integer' }, { type: 'integer' }, { type: 'integer' }], items: false })
    // the contract's own schemas (compiled by the server) keep their draft-07 form
    const ownPolylineIdx = DrivingRoute.properties.steps.items.properties.polylineIdx as unknown as Record<string, unknown>
    expect(Array.isArray(ownPolylineIdx.items)).toBe(true)
    expect(ownPolylineIdx.additionalItems).toBe(false)
    // the server's Ajv (draft-07, the options of server/src/app.ts) and a 2020-12 reader of the document agree
    const draft07 = new Ajv({ coerceTypes: false, removeAdditional: false, useDefaults: false })
    const samples = [[], [0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3, 4], [-1, 2], [1.5, 2], ['1', 2], [null, 1], [1, 2, 3, 'x'], {}, '0,1']
    const pairs: Array<[object, object, unknown[]]> = [[ownPolylineIdx, polylineIdx, [0, 1]], [OcrWord.properties.box, box, [0, 1, 2, 3]]]
    for (const [contract, published, good] of pairs) {
      const server = draft07.compile(contract)
      const reader = ajv2020().compile(published)
      expect(server(good)).toBe(true)
      for (const sample of samples) expect([sample, reader(sample)]).toEqual([sample, server(sample)])
    }
  })

  test('generates a TypeScript client (openapi-typescript) whose types are the contract\'s own, call by call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-client-'))
    try {
      writeFileSync(join(dir, 'openapi.json'), JSON.stringify(doc))
      const generator = resolve(__dirname, 'support/openapi-typescript.mjs')
      const { stderr } = await promisify(execFile)(process.execPath, [generator, join(dir, 'openapi.json'), join(dir, 'openapi.d.ts')], { timeout: 60_000 })
      // no warning from the generator's own validation (Redocly) either
      expect(stderr).toBe('')
      writeFileSync(join(dir, 'check.ts'), clientCheck(CONTRACT))
      expect(typeErrors(join(dir, 'check.ts'))).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  test('the docs page is served from the package (no third-party host)', async () => {
    const page = await t.app.inject({ method: 'GET', url: `${PREFIX}/docs/` })
    expect(page.statusCode).toBe(200)
    expect(page.body).toContain('swagger-ui')
    expect(page.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[a-z0-9.-]+\.[a-z]{2,}\/[^"']*\.(js|css)/i)
    // its scripts are there (an unknown path answers the envelope's 404, with HTTP 200)
    const scripts = [...page.body.matchAll(/<script src="\.\/([^"]+)"/g)].map(m => m[1])
    expect(scripts).toContain('static/swagger-initializer.js')
    for (const script of scripts) {
      const res = await t.app.inject({ method: 'GET', url: `${PREFIX}/docs/${script}` })
      expect([script, res.statusCode, res.headers['content-type']]).toEqual([script, 200, 'application/javascript; charset=utf-8'])
    }
    const init = await t.app.inject({ method: 'GET', url: `${PREFIX}/docs/static/swagger-initializer.js` })
    // Swagger UI reads the document from ./json beside the page: the same 3.1 document
    expect(init.body).toContain("resolveUrl('./json')")
    const json = await t.app.inject({ method: 'GET', url: `${PREFIX}/docs/json` })
    expect(json.statusCode).toBe(200)
    expect(json.json()).toEqual(doc)
  })
})

describe('the OpenAPI document in production', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp('sqlite', { env: { NODE_ENV: 'production' } })
  })
  afterAll(async () => { await t.close() })

  test('is served, leaves out the development-only calls, and there is no docs page', async () => {
    const doc = await documentOf(t)
    expect(doc.paths[`${PREFIX}/api/casePurchase`]).toBeDefined()
    expect(doc.paths[`${PREFIX}/api/sandboxPay`]).toBeUndefined()
    const page = await t.app.inject({ method: 'GET', url: `${PREFIX}/docs/` })
    expect(page.json()).toMatchObject({ code: 404 })
  })
})

describe('answers are serialised by their schema', () => {
  test('a field the schema does not name never leaves the server', async () => {
    const app = Fastify()
    app.decorateRequest('locale', 'en')
    const def = route({
      method: 'POST', url: '/leak', auth: 'none', tag: 'test', summary: 'leak', body: Obj({}),
      data: Type.Object({ id: Type.Integer(), name: Type.String() })
    })
    const ctx = { config: { isProduction: false } } as unknown as AppContext
    // a handler that returns more than its schema says (a row with its secrets)
    defineRoute(app as unknown as Api, ctx, def, async () => ({ id: 7, name: 'Ada', password_hash: 'argon2id$secret' }) as unknown as { id: number; name: string })
    const res = await app.inject({ method: 'POST', url: '/leak', payload: {} })
    expect(res.json()).toEqual({ code: 200, message: 'OK', data: { id: 7, name: 'Ada' } })
    expect(res.body).not.toContain('secret')
    await app.close()
  })
})
