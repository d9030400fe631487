/**
 * Combine (types/combine.ts): per-user seeds, published recipes, and the combine itself.
 *
 * A combine is one database transaction under the request's idempotency key:
 *   1. the inputs leave the warehouse by one conditional UPDATE (... AND status = 'warehouse'); the
 *      same item in two parallel combines: one takes it, the other changes nothing and is a 409
 *   2. the inputs must fit the recipe (its series, the count, the rarity or one design), else 422
 *   3. the user's active seed row is locked and its nonce taken and moved on (one UPDATE ... RETURNING;
 *      a rotation that committed while it waited replaced the row: the UPDATE runs again on the new one)
 *   4. the draw (types/fair.ts) picks from the recipe's pool; the output is a new prize in the warehouse
 * A seed is rotated by revealing it and making a new one, in one transaction with the seed row locked,
 * so no draw can use a seed after its reveal. Every per-user seed operation (combine, client seed,
 * rotation) is safe against the others at the same time: see onActiveSeed.
 */
import { randomBytes } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import { fairDraw, poolOddsPpm, serverSeedHash } from '../../../../types/fair'
import type { CombineRequest, CombineResult, FairSeedView, Recipe, RecipeSaveRequest, RotateResult } from '../../../../types/combine'
import type { PrizeStateFailureData } from '../../../../types/afterDraw'
import type { Rarity } from '../../../../types/shop'
import type { CombineRecipesTable, CombinesTable, Database, FairSeedsTable } from '../../db/schema'
import type { Dialect } from '../../db/dialect'
import { isUniqueViolation } from '../../db/errors'
import { dialectOf, forUpdate } from '../../db/lock'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { designInfo, loadSeries, text, type SeriesData } from '../catalogue/catalogue'
import { idempotent } from '../money/idempotency'
import { writeAudit } from '../ops/audit'
import { listPrizesByIds } from './prizes'
import { combineProof } from '../catalogue/fairProof'
import { freeOf, lockSeriesForStock, release, takeFree } from '../catalogue/stock'

type Db = Kysely<Database>
export interface CombineDeps { db: Db; dialect: Dialect; clock: Clock }

const RARITY_RANK: Record<Rarity, number> = { regular: 0, rare: 1, hidden: 2 }

// ---- seeds ----------------------------------------------------------------------------------------

const newServerSeed = () => randomBytes(32).toString('hex')
const newClientSeed = () => randomBytes(8).toString('hex')

const seedView = (s: Selectable<FairSeedsTable>): FairSeedView => ({ serverSeedHash: s.server_seed_hash, clientSeed: s.client_seed, nonce: Number(s.nonce) })

async function insertSeed (db: Db, clock: Clock, userId: number, clientSeed = newClientSeed()): Promise<Selectable<FairSeedsTable>> {
  const serverSeed = newServerSeed()
  return db.insertInto('fair_seeds').values({
    user_id: userId, server_seed: serverSeed, server_seed_hash: serverSeedHash(serverSeed), client_seed: clientSeed, nonce: 0,
    status: 'active', created_at: iso(clock()), revealed_at: null
  }).returningAll().executeTakeFirstOrThrow()
}

/** The user's active seed, made on first use (a concurrent first use finds the other's). */
export async function activeSeed (db: Db, clock: Clock, userId: number): Promise<Selectable<FairSeedsTable>> {
  const found = await db.selectFrom('fair_seeds').selectAll().where('user_id', '=', userId).where('status', '=', 'active').executeTakeFirst()
  if (found) return found
  try {
    return await insertSeed(db, clock, userId)
  } catch (err) {
    if (!isUniqueViolation(err)) throw err
    return db.selectFrom('fair_seeds').selectAll().where('user_id', '=', userId).where('status', '=', 'active').executeTakeFirstOrThrow()
  }
}

export const seedOf = async (db: Db, clock: Clock, userId: number) => seedView(await activeSeed(db, clock, userId))

/**
 * A seed operation against the user's active seed row: `step` runs one statement that finds the active
 * row (an UPDATE ... RETURNING, or a SELECT ... FOR UPDATE) and answers it, or undefined when there is
 * none. On PostgreSQL a rotation committed while the statement waited on the row's lock leaves it
 * revealed, and the statement finds nothing; under READ COMMITTED the next statement sees the new
 * active row, so the step is run again (each miss means another rotation finished). SQLite runs one
 * write transaction at a time and never misses. (Callers make the user's first seed beforehand.)
 */
async function onActiveSeed<T> (step: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const row = await step()
    if (row !== undefined) return row
    if (attempt >= SEED_ATTEMPTS) throw new ApiFailure(409, 'combine.seedBusy', {}, {})
  }
}
/** How often a seed operation looks again for the active seed a parallel rotation replaced. */
const SEED_ATTEMPTS = 20

export async function setClientSeed (deps: CombineDeps, userId: number, clientSeed: string): Promise<FairSeedView> {
  const { db, clock } = deps
  await activeSeed(db, clock, userId)
  const row = await onActiveSeed(() => db.updateTable('fair_seeds').set({ client_seed: clientSeed })
    .where('user_id', '=', userId).where('status', '=', 'active').returningAll().executeTakeFirst())
  return seedView(row)
}

export async function rotateSeed (deps: CombineDeps, userId: number): Promise<RotateResult> {
  const { db, clock } = deps
  await activeSeed(db, clock, userId)
  return db.transaction().execute(async trx => {
    const now = iso(clock())
    // two rotations at once: the second waits for the first, then reveals the seed the first made
    const old = await onActiveSeed(() => forUpdate(deps.dialect, trx.selectFrom('fair_seeds').selectAll()
      .where('user_id', '=', userId).where('status', '=', 'active')).executeTakeFirst())
    await trx.updateTable('fair_seeds').set({ status: 'revealed', revealed_at: now }).where('id', '=', old.id).execute()
    const current = await insertSeed(trx, clock, userId, old.client_seed)
    return {
      revealed: { serverSeed: old.server_seed, serverSeedHash: old.server_seed_hash, clientSeed: old.client_seed, nextNonce: Number(old.nonce), revealedAt: now },
      current: seedView(current)
    }
  })
}

// ---- recipes --------------------------------------------------------------------------------------

interface PoolItem { designId: number; weight: number }
const poolOf = (r: { pool: string }) => JSON.parse(r.pool) as PoolItem[]

export async function listRecipes (db: Db, seriesId?: number, includeOff = false): Promise<Array<Recipe & { status: 'on' | 'off' }>> {
  let q = db.selectFrom('combine_recipes').selectAll()
  if (!includeOff) q = q.where('status', '=', 'on')
  if (seriesId !== undefined) q = q.where('series_id', '=', seriesId)
  const rows = await q.orderBy('id').execute()
  const series = await loadSeries(db, rows.map(r => Number(r.series_id)), includeOff)
  return rows.filter(r => series.has(Number(r.series_id))).map(r => ({ ...recipeView(r, series.get(Number(r.series_id))!), status: r.status }))
}

function recipeView (r: Selectable<CombineRecipesTable>, s: SeriesData): Recipe {
  const pool = poolOf(r)
  const total = pool.reduce((sum, p) => sum + p.weight, 0)
  const odds = poolOddsPpm(pool.map(p => p.weight))
  const entries = pool.map((p, i) => {
    const d = s.designs.find(x => Number(x.id) === p.designId)
    if (!d) throw new Error(`recipe ${r.id}: design ${p.designId} is not in series ${r.series_id}`)
    return { design: designInfo(d, s.odds), weight: p.weight, oddsPpm: odds[i] }
  })
  const guaranteed = entries.reduce<Rarity>((min, e) => (RARITY_RANK[e.design.rarity] < RARITY_RANK[min] ? e.design.rarity : min), 'hidden')
  return {
    id: Number(r.id),
    seriesId: Number(r.series_id),
    seriesTitle: text(s.row.name, s.row.name_en),
    name: text(r.name, r.name_en),
    input: { kind: r.input_kind, rarity: r.input_rarity, count: Number(r.input_count) },
    pool: entries,
    totalWeight: total,
    guaranteedRarity: guaranteed
  }
}

// ---- combine --------------------------------------------------------------------------------------

async function resultOf (db: Db, c: Selectable<CombinesTable>, userId: number): Promise<CombineResult> {
  const [output] = await listPrizesByIds(db, userId, [Number(c.output_prize_id)])
  return {
    combineId: Number(c.id),
    recipeId: Number(c.recipe_id),
    inputPrizeIds: JSON.parse(c.inputs) as number[],
    output,
    proof: await combineProof(db, Number(c.id)),
    createdAt: c.created_at
  }
}

export async function combineDetail (db: Db, userId: number, combineId: number): Promise<CombineResult> {
  const c = await db.selectFrom('combines').selectAll().where('id', '=', combineId).where('user_id', '=', userId).executeTakeFirst()
  if (!c) throw new ApiFailure(404, 'combine.notFound', {}, { field: 'combineId' })
  return resultOf(db, c, userId)
}

export async function combinePrizes (deps: CombineDeps, userId: number, request: CombineRequest): Promise<CombineResult> {
  const { db, clock } = deps
  const ids = request.prizeIds
  if (new Set(ids).size !== ids.length) throw new ApiFailure(400, 'prize.duplicate', { field: 'prizeIds', prizeId: ids.find((id, i) => ids.indexOf(id) !== i)! }, { field: 'prizeIds' })
  await activeSeed(db, clock, userId)
  const { idempotencyKey, ...body } = request
  const { result: combineId } = await idempotent(db, clock, { userId, key: idempotencyKey, scope: 'combine', body }, async trx => {
    // 0. the recipe, inside the transaction: a repeat of a combine that succeeded answers its first
    // result even if the recipe was withdrawn since (idempotent looks the key up when this fails), and
    // on PostgreSQL an operator's change of the recipe waits for this combine or comes before it whole
    const q = trx.selectFrom('combine_recipes').selectAll().where('id', '=', request.recipeId).where('status', '=', 'on')
    const recipe = await (dialectOf(trx) === 'postgres' ? q.forShare() : q).executeTakeFirst()
    if (!recipe) throw new ApiFailure(404, 'combine.recipeNotFound', {}, { field: 'recipeId' })
    const now = iso(clock())
    // 1. the inputs leave the warehouse (or nothing happens)
    const taken = await trx.updateTable('prizes').set({ status: 'combined', updated_at: now })
      .where('id', 'in', ids).where('user_id', '=', userId).where('status', '=', 'warehouse')
      .returning(['id', 'series_id', 'design_id']).execute()
    if (taken.length < ids.length) {
      const got = new Set(taken.map(p => Number(p.id)))
      const missing = ids.find(id => !got.has(id))!
      const row = await trx.selectFrom('prizes').select('status').where('id', '=', missing).where('user_id', '=', userId).executeTakeFirst()
      if (!row) throw new ApiFailure(404, 'prize.notFound', {}, { field: 'prizeIds', prizeId: missing } satisfies PrizeStateFailureData)
      throw new ApiFailure(409, 'prize.notInWarehouse', { prizeId: missing, status: `@prizeStatus.${row.status}` },
        { field: 'prizeIds', prizeId: missing, status: row.status } satisfies PrizeStateFailureData)
    }
    // 2. they fit the recipe
    if (taken.length !== Number(recipe.input_count)) throw fail.unprocessable('combine.count', { count: recipe.input_count }, { field: 'prizeIds', count: Number(recipe.input_count) })
    if (taken.some(p => Number(p.series_id) !== Number(recipe.series_id))) throw fail.unprocessable('combine.series', {}, { field: 'prizeIds' })
    if (recipe.input_kind === 'same_design') {
      if (new Set(taken.map(p => Number(p.design_id))).size !== 1) throw fail.unprocessable('combine.sameDesign', {}, { field: 'prizeIds' })
    } else {
      const designs = await trx.selectFrom('designs').select(['id', 'rarity']).where('id', 'in', taken.map(p => Number(p.design_id))).execute()
      if (designs.some(d => d.rarity !== recipe.input_rarity)) {
        throw fail.unprocessable('combine.rarity', { rarity: `@rarity.${recipe.input_rarity}` }, { field: 'prizeIds', rarity: recipe.input_rarity })
      }
    }
    // the inputs go back on the warehouse's shelf (free stock); the output must come from it: every design
    // the draw could land on needs a free figure, checked with the series row locked before the draw, so
    // a draw is never made and then undone for want of a figure (which would let a shopper fish for one)
    // (the series row first, then the designs' rows, as a new case takes them: no deadlock)
    await lockSeriesForStock(trx, Number(recipe.series_id))
    await release(trx, taken.map(p => Number(p.design_id)))
    const pool = poolOf(recipe)
    const drawable = pool.filter(p => p.weight > 0).map(p => p.designId)
    const free = await freeOf(trx, drawable)
    if (drawable.some(id => (free.get(id) ?? 0) < 1)) throw new ApiFailure(409, 'combine.outOfStock', {}, { field: 'recipeId', reason: 'out_of_stock' })
    // 3. the seed: locked, its nonce taken and moved on
    const seed = await onActiveSeed(() => trx.updateTable('fair_seeds').set(eb => ({ nonce: eb('nonce', '+', 1) }))
      .where('user_id', '=', userId).where('status', '=', 'active')
      .returningAll().executeTakeFirst())
    const nonce = Number(seed.nonce) - 1
    // 4. the draw and its prize, whose figure leaves free stock
    const d = fairDraw(seed.server_seed, seed.client_seed, nonce, pool.map(p => p.weight))
    const designId = pool[d.index].designId
    if (!await takeFree(trx, [designId])) throw new ApiFailure(409, 'combine.outOfStock', {}, { field: 'recipeId', reason: 'out_of_stock' })
    const { id: prizeId } = await trx.insertInto('prizes').values({
      user_id: userId, series_id: Number(recipe.series_id), design_id: designId, case_id: null, slot: null,
      status: 'warehouse', origin: 'combine', created_at: now, updated_at: now
    }).returning('id').executeTakeFirstOrThrow()
    const { id } = await trx.insertInto('combines').values({
      user_id: userId, recipe_id: Number(recipe.id), seed_id: Number(seed.id), client_seed: seed.client_seed, nonce,
      inputs: JSON.stringify(ids), pool: JSON.stringify(pool), draw: JSON.stringify({ value: d.value, round: d.round, word: d.word, index: d.index }),
      output_prize_id: Number(prizeId), created_at: now
    }).returning('id').executeTakeFirstOrThrow()
    await trx.updateTable('prizes').set({ combine_id: Number(id) }).where('id', '=', Number(prizeId)).execute()
    return Number(id)
  })
  return combineDetail(db, userId, combineId)
}

export interface RecipeInput {
  seriesId: number
  name: { zh: string; en: string }
  inputKind: 'rarity' | 'same_design'
  inputRarity: Rarity | null
  inputCount: number
  pool: PoolItem[]
}

/** Publishes a recipe (the demo seed; the operator's editor in issue 10). */
export async function createRecipe (db: Db, clock: Clock, r: RecipeInput): Promise<number> {
  const now = iso(clock())
  const { id } = await db.insertInto('combine_recipes').values({
    series_id: r.seriesId, name: r.name.zh, name_en: r.name.en, input_kind: r.inputKind, input_rarity: r.inputRarity,
    input_count: r.inputCount, pool: JSON.stringify(r.pool), status: 'on', created_at: now, updated_at: now
  }).returning('id').executeTakeFirstOrThrow()
  return Number(id)
}

type DesignNames = Map<number, { zh: string; en: string }>

/** What the audit log keeps of a recipe: the request's shape without the id, each pool entry with its design's name. */
function recipeState (r: Pick<Selectable<CombineRecipesTable>, 'series_id' | 'name' | 'name_en' | 'input_kind' | 'input_rarity' | 'input_count' | 'pool' | 'status'>, names: DesignNames) {
  return {
    seriesId: Number(r.series_id),
    name: { zh: r.name, en: r.name_en },
    inputKind: r.input_kind,
    inputRarity: r.input_rarity,
    inputCount: Number(r.input_count),
    pool: poolOf(r).map(p => ({ designId: p.designId, name: names.get(p.designId) ?? null, weight: p.weight })),
    status: r.status
  }
}

async function designNames (db: Db, ids: number[]): Promise<DesignNames> {
  if (!ids.length) return new Map()
  const rows = await db.selectFrom('designs').select(['id', 'name', 'name_en']).where('id', 'in', [...new Set(ids)]).execute()
  return new Map(rows.map(d => [Number(d.id), { zh: d.name, en: d.name_en }]))
}

/** The operator's change of a recipe: the pool must be designs of the series; every change is audited (before and after). */
export async function saveRecipe (db: Db, dialect: Dialect, clock: Clock, actorId: number, r: RecipeSaveRequest): Promise<Recipe & { status: 'on' | 'off' }> {
  const designs = await db.selectFrom('designs').select('id').where('series_id', '=', r.seriesId).execute()
  if (!designs.length) throw new ApiFailure(404, 'series.notFound', {}, { field: 'seriesId' })
  const ids = new Set(designs.map(d => Number(d.id)))
  const stranger = r.pool.find(p => !ids.has(p.designId))
  if (stranger) throw new ApiFailure(400, 'combine.poolDesign', { designId: stranger.designId }, { field: 'pool', designId: stranger.designId })
  if (new Set(r.pool.map(p => p.designId)).size !== r.pool.length) throw new ApiFailure(400, 'combine.poolDuplicate', {}, { field: 'pool' })
  if (r.inputKind === 'rarity' && !r.inputRarity) throw new ApiFailure(400, 'combine.rarityRequired', {}, { field: 'inputRarity' })
  for (const lang of ['zh', 'en'] as const) {
    if (!r.name[lang].trim()) throw fail.field(`name.${lang}`, 'combine.nameBlank')
  }
  const now = iso(clock())
  const values = {
    series_id: r.seriesId, name: r.name.zh.trim(), name_en: r.name.en.trim(), input_kind: r.inputKind,
    input_rarity: r.inputKind === 'rarity' ? r.inputRarity : null, input_count: r.inputCount, pool: JSON.stringify(r.pool), status: r.status, updated_at: now
  }
  const id = await db.transaction().execute(async trx => {
    let recipeId: number
    let before: ReturnType<typeof recipeState> | null = null
    if (r.id === undefined) {
      recipeId = Number((await trx.insertInto('combine_recipes').values({ ...values, created_at: now }).returning('id').executeTakeFirstOrThrow()).id)
    } else {
      const old = await forUpdate(dialect, trx.selectFrom('combine_recipes').selectAll().where('id', '=', r.id)).executeTakeFirst()
      if (!old) throw new ApiFailure(404, 'combine.recipeNotFound', {}, { field: 'id' })
      before = recipeState(old, await designNames(trx, [...poolOf(old), ...r.pool].map(p => p.designId)))
      await trx.updateTable('combine_recipes').set(values).where('id', '=', r.id).execute()
      recipeId = r.id
    }
    const after = recipeState(values, await designNames(trx, r.pool.map(p => p.designId)))
    await writeAudit(trx, clock, { actorId, action: r.id === undefined ? 'recipe.create' : 'recipe.update', entity: 'recipe', entityId: recipeId, detail: { before, after } })
    return recipeId
  })
  const [saved] = (await listRecipes(db, r.seriesId, true)).filter(x => x.id === id)
  return saved
}
