/**
 * Cases: made and committed at once (arrangement.ts), shown slot by slot (sold or not), revealed when
 * sold out or retired. Every on-sale series keeps at least one case on sale. A shopper sees one case of
 * a series (the one they were given or last switched to while it is on sale) and may switch to another
 * CASE_SWITCHES_PER_DAY times a (China) day.
 *
 * Spreading shoppers (issue 12, launch day): a shopper who has no case of the series on sale is given
 * one that nobody else is being shown: the most sold such case (cases fill up one after another), or a
 * new case when every open case is held, up to CASE_SPREAD.maxOpenCases; beyond that, a shopper shares
 * an open case with free slots picked at random (all of them used to be sent to the one roomiest case,
 * which then sold out under them: 66 % "slot sold" with 2,000 shoppers and a cap of 1,000). Being shown a case holds it (a lease, CASE_LEASE_MS, renewed while the shopper keeps
 * looking); leases are taken by a conditional upsert, so two shoppers never both hold one case. A new
 * case is made and committed like any other; being given a case is not a switch.
 */
import { sql, type Kysely } from 'kysely'
import type { CaseProof, CaseView } from '../../../../types/shop'
import { SHOP_LIMITS } from '../../../../types/limits'
import type { CaseSwitchLimitData } from '../../../../types/shop'
import type { CaseRowDb, Database } from '../../db/schema'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { dialectOf } from '../../db/lock'
import { prepared } from '../../db/prepared'
import { isRetryableConflict } from '../../db/errors'
import { commitOf, composeCase, newSalt, secureRandomInt, shuffle, type RandomInt } from './arrangement'
import { msUntilNextDay, shopDay } from '../../core/days'
import { figuresNeeded, lockSeriesForStock, takeFree, takeFreeCounts } from './stock'
import { KUJI_DOUBLE_CHANCE, KUJI_LAST_ONE } from '../../../../types/kuji'
import { serverSeedHash } from '../../../../types/fair'
import { randomBytes } from 'node:crypto'
import { notStarted, openDueDrops, sellsByDrop } from './drops'
import { dropHasCasesLeft, noteCaseDrop, requireLetIn, roomDropOf } from './dropQueue'

export { retireOnSaleCases } from './stock'

type Db = Kysely<Database>

export const CASE_SWITCHES_PER_DAY = SHOP_LIMITS.caseSwitchesPerDay
const SWITCH_COUNTER = 'case_switch'
/** How long being shown a case holds it from other shoppers; renewed once half of it has passed. */
export const CASE_LEASE_MS = 60_000
/** The most cases of one series on sale at once: beyond it, shoppers share cases. */
/**
 * The most cases of one series on sale at once: beyond it, shoppers share cases. A case costs a row and
 * its slots (12 in the demo series), and a launch of N shoppers at once wants N cases; the shops' own
 * launch bench runs 2,000 (bench/launch.js). Tests lower it to reach the sharing rule.
 */
export const CASE_SPREAD = { maxOpenCases: 5000 }

/**
 * Makes, shuffles and commits a new case of a series when the warehouse can fill it (stock.ts); answers
 * its id, or null when it cannot: some design a case may hold (the hidden one too, while the series has a
 * hidden chance) has no free figure. That is checked before anything is drawn, with the series row
 * locked, so no draw is thrown away. Run inside a transaction.
 */
export async function createCase (trx: Db, clock: Clock, seriesId: number, random: RandomInt = secureRandomInt): Promise<number | null> {
  // a series that sells by drops gets its cases only from a drop (drops.ts). Once it has one it always
  // does (a drop is never deleted), so that is asked before the series' row is taken: at a drop's end
  // every shopper let in who finds no free case asks for one, and each would wait its turn on the row,
  // holding a connection, to learn there is none; asked again once the row is held (a drop made meanwhile)
  if (await sellsByDrop(trx, seriesId)) return null
  await lockSeriesForStock(trx, seriesId)
  if (await sellsByDrop(trx, seriesId)) return null
  const series = await trx.selectFrom('series').select(['hidden_ppm', 'kind', 'dc_winners']).where('id', '=', seriesId).executeTakeFirstOrThrow()
  const designs = await trx.selectFrom('designs').select(['id', 'rarity', 'stock', 'committed', 'tier', 'tickets']).where('series_id', '=', seriesId)
    .orderBy('sort').orderBy('id').execute()
  const needs = (d: typeof designs[number]) => figuresNeeded(d, series.kind, series.hidden_ppm, series.dc_winners)
  const mayHold = designs.filter(d => needs(d) > 0)
  if (mayHold.length === 0 || mayHold.some(d => Number(d.stock) - Number(d.committed) < needs(d))) return null
  // a kuji set: every tier design once a ticket, shuffled, then the Last One in the slot after the last
  // ticket, then one Double Chance prize a winner; the Double Chance's seed is made, its hash published
  let designIds: number[]
  let ticketCount: number
  let dc: { dc_seed: string; dc_seed_hash: string } | null = null
  if (series.kind === 'kuji') {
    const lastOne = designs.find(d => d.tier === KUJI_LAST_ONE)
    const chance = designs.find(d => d.tier === KUJI_DOUBLE_CHANCE)
    if (!lastOne || (series.dc_winners > 0 && !chance)) return null
    const tickets = shuffle(designs.filter(d => d.tier && /^[A-Z]$/.test(d.tier)).flatMap(d => Array.from({ length: Number(d.tickets) }, () => Number(d.id))), random)
    designIds = [...tickets, Number(lastOne.id), ...Array.from({ length: series.dc_winners }, () => Number(chance!.id))]
    ticketCount = tickets.length
    if (!await takeFreeCounts(trx, designIds)) return null
    if (series.dc_winners > 0) {
      const seed = randomBytes(32).toString('hex')
      dc = { dc_seed: seed, dc_seed_hash: serverSeedHash(seed) }
    }
  } else {
    designIds = composeCase(designs.map(d => ({ id: Number(d.id), rarity: d.rarity })), series.hidden_ppm, random).designIds
    shuffle(designIds, random)
    ticketCount = designIds.length
    if (!await takeFree(trx, designIds)) return null
  }
  const salt = newSalt()
  const now = iso(clock())
  const { id } = await trx.insertInto('cases').values({
    series_id: seriesId,
    size: ticketCount,
    commit_hash: '',
    arrangement: JSON.stringify(designIds),
    salt,
    status: 'on_sale',
    sold_count: 0,
    created_at: now,
    revealed_at: null,
    ...(dc ?? {})
  }).returning('id').executeTakeFirstOrThrow()
  const caseId = Number(id)
  await trx.updateTable('cases').set({ commit_hash: commitOf(caseId, designIds, salt) }).where('id', '=', caseId).execute()
  await trx.insertInto('case_slots').values(designIds.map((designId, i) => ({
    case_id: caseId, slot: i + 1, design_id: designId, sold_to: null, sold_at: null
  }))).execute()
  return caseId
}

async function onSaleCases (db: Db, seriesId: number): Promise<CaseRowDb[]> {
  return db.selectFrom('cases').selectAll().where('series_id', '=', seriesId).where('status', '=', 'on_sale').orderBy('id').execute()
}

/** The series must be on sale (404 otherwise; a retired series has no case to buy from). */
async function requireOnSaleSeries (db: Db, seriesId: number): Promise<{ kind: string }> {
  const s = await seriesStatusOf.first(db, seriesId)
  if (!s || (s.status !== 'on_sale' && s.status !== 'retired')) throw fail.notFound('series.notFound')
  if (s.status !== 'on_sale') throw fail.notFound('series.notOnSale')
  return s
}

/**
 * A series whose drop has not started yet shows no case: 409 drop.notStarted, with the start (opens a
 * drop whose start has come); a drop with a waiting room shows its cases only to those it let in (409
 * drop.queue).
 */
async function requireStarted (db: Db, clock: Clock, seriesId: number, userId: number | null): Promise<void> {
  const waiting = await openDueDrops(db, clock, seriesId)
  if (waiting !== null) throw notStarted(waiting)
  const room = await roomDropOf(db, seriesId)
  try {
    await requireLetIn(db, clock, room, userId)
  } catch (err) {
    // a drop with nothing left has no queue to stand in: the series is sold out (said below)
    if (room === null || await dropHasCasesLeft(db, room)) throw err
  }
}

/** The refusal when a series on sale has no case and the warehouse cannot fill another. */
export const soldOut = (): ApiFailure => new ApiFailure(409, 'series.soldOut', {}, { reason: 'sold_out' })

/** The oldest case on sale, making one if there is none (e.g. after concurrent sell-outs); sold out: 409. */
export async function oldestOnSaleCase (db: Db, clock: Clock, seriesId: number): Promise<CaseRowDb> {
  const [first] = await onSaleCases(db, seriesId)
  if (first) return first
  const id = await db.transaction().execute(async trx => (await onSaleCases(trx, seriesId))[0]?.id ?? await createCase(trx, clock, seriesId))
  if (id === null) throw soldOut()
  return db.selectFrom('cases').selectAll().where('id', '=', Number(id)).executeTakeFirstOrThrow()
}

/*
 * The case calls' statements that come with every look at a case, built once (db/prepared.ts): at a drop
 * each shopper let in looks at a case, checks and buys, and building them again for each was a tenth of
 * the shop's time in the drop (bench/drop.js, profiled).
 */
const seriesStatusOf = prepared((db: Db, seriesId: number) => db.selectFrom('series').select(['status', 'kind']).where('id', '=', seriesId))
const chosenCaseOf = prepared((db: Db, userId: number, seriesId: number) => db.selectFrom('case_choices').innerJoin('cases', 'cases.id', 'case_choices.case_id')
  .selectAll('cases')
  .where('case_choices.user_id', '=', userId).where('case_choices.series_id', '=', seriesId)
  .where('cases.status', '=', 'on_sale'))
const switchCount = prepared((db: Db, userId: number, day: string) => db.selectFrom('daily_counters').select('count')
  .where('user_id', '=', userId).where('name', '=', SWITCH_COUNTER).where('day', '=', day))
const slotsOfCase = prepared((db: Db, caseId: number) => db.selectFrom('case_slots').select(['slot', 'sold_to']).where('case_id', '=', caseId).orderBy('slot'))

async function chosenCase (db: Db, seriesId: number, userId: number): Promise<CaseRowDb | undefined> {
  return chosenCaseOf.first(db, userId, seriesId) as Promise<CaseRowDb | undefined>
}

async function switchesUsed (db: Db, userId: number, day: string): Promise<number> {
  const row = await switchCount.first(db, userId, day)
  return row ? row.count : 0
}

/** `heldUntil`: the end of the caller's own lease of the case (the page counts it down), or null. */
async function caseView (db: Db, c: CaseRowDb, switchesLeft: number, heldUntil: string | null): Promise<CaseView> {
  // the purchase that follows need not read the case's drop again
  noteCaseDrop(db, Number(c.id), c.drop_id === null ? null : Number(c.drop_id))
  const slots = (await slotsOfCase.execute(db, Number(c.id))).rows
  return {
    caseId: Number(c.id),
    seriesId: Number(c.series_id),
    commit: c.commit_hash,
    size: c.size,
    // a kuji set's Last One waits in the slot after its tickets: it is won, not bought (types/kuji.ts)
    slots: slots.filter(s => s.slot <= c.size).map(s => ({ slot: s.slot, sold: s.sold_to !== null })),
    switchesLeft,
    heldUntil
  }
}

/** Open cases of the series nobody else holds now, fullest first (cases sell out one after another), then oldest. */
export async function unheldCases (db: Db, seriesId: number, userId: number | null, now: number, limit: number, exclude: number[] = []): Promise<number[]> {
  const rows = await db.selectFrom('cases').leftJoin('case_leases', 'case_leases.case_id', 'cases.id')
    .select('cases.id')
    .where('cases.series_id', '=', seriesId).where('cases.status', '=', 'on_sale')
    .$if(exclude.length > 0, q => q.where('cases.id', 'not in', exclude))
    .where(eb => eb.or([
      eb('case_leases.case_id', 'is', null),
      eb('case_leases.until', '<=', iso(now)),
      ...(userId === null ? [] : [eb('case_leases.user_id', '=', userId)])
    ]))
    .orderBy('cases.sold_count', 'desc')
    // among cases as full as each other, each shopper walks them in an order of their own: shoppers
    // arriving together (a launch, with cases opened ahead) then try different cases instead of all
    // trying the same dozen and passing by each other's leases one round trip at a time
    .$if(userId !== null, q => q.orderBy(sql`(cases.id * 7919 + cast(${userId ?? 0} as bigint) * 104729) % 10007`))
    .orderBy('cases.id')
    .limit(limit)
    .execute()
  return rows.map(r => Number(r.id))
}

/** How many cases of the series are on sale (an index-only count). */
export async function openCaseCount (db: Db, seriesId: number): Promise<number> {
  const row = await db.selectFrom('cases').where('series_id', '=', seriesId).where('status', '=', 'on_sale')
    .select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The open case of the series with the most free slots (a sort of every open case: only when it is needed). */
async function roomiestCase (db: Db, seriesId: number): Promise<number | null> {
  const row = await db.selectFrom('cases').select('id').where('series_id', '=', seriesId).where('status', '=', 'on_sale')
    .orderBy(sql`size - sold_count`, 'desc').orderBy('id').limit(1).executeTakeFirst()
  return row ? Number(row.id) : null
}

/** An open case of the series with a free slot, picked at random (random() is SQLite's and PostgreSQL's). */
async function randomRoomyCase (db: Db, seriesId: number): Promise<number | null> {
  const row = await db.selectFrom('cases').select('id')
    .where('series_id', '=', seriesId).where('status', '=', 'on_sale').where(sql`size - sold_count`, '>', 0)
    .orderBy(sql`random()`).limit(1).executeTakeFirst()
  return row ? Number(row.id) : null
}

/**
 * The first key of the transaction-scoped advisory locks a lease is taken under on PostgreSQL (the
 * second is the case's id): an arbitrary constant, used for nothing else.
 */
const LEASE_LOCK_SPACE = 16_016

/**
 * Takes or renews the lease of a case for a user when it is free, expired or theirs; answers whether they hold it.
 * On PostgreSQL the upsert waits when another shopper's transaction has written the case's lease row
 * and not committed yet, for as long as that whole transaction runs: in a launch of 2,000 shoppers at
 * once those waits took 0.43 s each (bench/launch.js --pg-stats). So the same statement first tries a
 * transaction-scoped advisory lock on the case, which every lease write here takes: when another
 * shopper is taking this case right now, the case is passed by at once (answered as not held) and the
 * caller tries the next one. SQLite runs one write transaction at a time and never waits here.
 */
async function takeLease (db: Db, caseId: number, userId: number, now: number): Promise<boolean> {
  const until = iso(now + CASE_LEASE_MS)
  const insert = dialectOf(db) === 'postgres'
    ? db.insertInto('case_leases').columns(['case_id', 'user_id', 'until'])
      .expression(db.selectNoFrom([
        sql<number>`${caseId}::bigint`.as('case_id'),
        sql<number>`${userId}::bigint`.as('user_id'),
        sql<string>`${until}::timestamptz`.as('until')
      ]).where(sql<boolean>`pg_try_advisory_xact_lock(${LEASE_LOCK_SPACE}, mod(${caseId}::bigint, 2147483647)::int)`))
    : db.insertInto('case_leases').values({ case_id: caseId, user_id: userId, until })
  const row = await insert
    .onConflict(oc => oc.column('case_id').doUpdateSet({ user_id: userId, until })
      .where(eb => eb.or([eb('case_leases.until', '<=', iso(now)), eb('case_leases.user_id', '=', userId)])))
    .returning('case_id')
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Gives a logged-in shopper a case of the series (see the header): one nobody else holds, else a new
 * one, else a shared one; records it as their case (not a switch). Answers the case's id and the end of
 * their lease of it (null when shared).
 */
async function assignCase (db: Db, clock: Clock, seriesId: number, userId: number): Promise<{ caseId: number; heldUntil: string | null }> {
  // PostgreSQL may give up on it in a deadlock with a purchase of the same cases (shoppers racing at a
  // drop's start): it is run again, as the purchases are (purchaseOnPostgres.ts)
  for (let attempt = 1; ; attempt++) {
    try {
      return await assignCaseOnce(db, clock, seriesId, userId)
    } catch (err) {
      if (isRetryableConflict(err) && attempt < 3) continue
      throw err
    }
  }
}

async function assignCaseOnce (db: Db, clock: Clock, seriesId: number, userId: number): Promise<{ caseId: number; heldUntil: string | null }> {
  const now = clock()
  // one transaction (one commit): the lease or the new case, and the shopper's choice
  return db.transaction().execute(async trx => {
    let caseId: number | null = null
    let heldUntil: string | null = iso(now + CASE_LEASE_MS)
    // the free cases, a dozen at a time: under concurrency (PostgreSQL) other shoppers may be taking
    // some of them right now (takeLease passes those by without waiting); each round leaves out the
    // ones tried, and sees the leases committed since, until a case is taken or none is free
    const tried: number[] = []
    while (caseId === null) {
      const candidates = await unheldCases(trx, seriesId, userId, now, 12, tried)
      if (candidates.length === 0) break
      for (const id of candidates) {
        tried.push(id)
        if (await takeLease(trx, id, userId, now)) { caseId = id; break }
      }
    }
    if (caseId === null) {
      // below the cap a new case is opened; the roomiest open case is looked for only at the cap
      // (it sorts every open case: with 2,000 shoppers arriving at once it was 0.5 s of the database's time)
      const open = await openCaseCount(trx, seriesId)
      const made = open < CASE_SPREAD.maxOpenCases ? await createCase(trx, clock, seriesId) : null
      if (made !== null) {
        caseId = made
        await trx.insertInto('case_leases').values({ case_id: caseId, user_id: userId, until: iso(now + CASE_LEASE_MS) }).execute()
      } else {
        // shared (at the cap, or the warehouse cannot fill another case): any open case with free
        // slots, at random, so that sharers spread out; none at all: the series is sold out
        caseId = (await randomRoomyCase(trx, seriesId)) ?? await roomiestCase(trx, seriesId)
        if (caseId === null) throw soldOut()
        heldUntil = null
      }
    }
    await trx.insertInto('case_choices')
      .values({ user_id: userId, series_id: seriesId, case_id: caseId, updated_at: iso(now) })
      .onConflict(oc => oc.columns(['user_id', 'series_id']).doUpdateSet({ case_id: caseId, updated_at: iso(now) }))
      .execute()
    return { caseId, heldUntil }
  })
}

/**
 * The shopper keeps looking at their case: the lease is renewed once half of it has passed. Answers the
 * end of their lease, or null when another shopper holds the case.
 */
async function renewLease (db: Db, caseId: number, userId: number, now: number): Promise<string | null> {
  const lease = await db.selectFrom('case_leases').select(['user_id', 'until']).where('case_id', '=', caseId).executeTakeFirst()
  if (lease && Number(lease.user_id) === userId && Date.parse(lease.until) - now > CASE_LEASE_MS / 2) return new Date(Date.parse(lease.until)).toISOString()
  // held by another shopper (they share it: the shop was at CASE_SPREAD.maxOpenCases): nothing to renew
  if (lease && Number(lease.user_id) !== userId && Date.parse(lease.until) > now) return null
  return await takeLease(db, caseId, userId, now) ? iso(now + CASE_LEASE_MS) : null
}

/** The case a logged-out visitor sees: the one a shopper arriving now would be given, without holding it. */
async function caseForVisitor (db: Db, clock: Clock, seriesId: number): Promise<CaseRowDb> {
  const [free] = await unheldCases(db, seriesId, null, clock(), 1)
  const id = free ?? await roomiestCase(db, seriesId)
  if (id === null) return oldestOnSaleCase(db, clock, seriesId)
  return db.selectFrom('cases').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
}

/** The user's current case of a series (given one if they have none on sale); logged out: see caseForVisitor. */
export async function currentCase (db: Db, clock: Clock, seriesId: number, userId: number | null): Promise<CaseView> {
  const series = await requireOnSaleSeries(db, seriesId)
  await requireStarted(db, clock, seriesId, userId)
  // a kuji series has one set on sale, shared by everyone (kuji.ts): nobody is given a case of their own
  if (series.kind === 'kuji') return caseView(db, await oldestOnSaleCase(db, clock, seriesId), 0, null)
  if (userId === null) return caseView(db, await caseForVisitor(db, clock, seriesId), CASE_SWITCHES_PER_DAY, null)
  let c = await chosenCase(db, seriesId, userId)
  let heldUntil: string | null
  if (c) {
    heldUntil = await renewLease(db, Number(c.id), userId, clock())
  } else {
    const given = await assignCase(db, clock, seriesId, userId)
    heldUntil = given.heldUntil
    c = await db.selectFrom('cases').selectAll().where('id', '=', given.caseId).executeTakeFirstOrThrow()
  }
  const used = await switchesUsed(db, userId, shopDay(clock()))
  return caseView(db, c, Math.max(0, CASE_SWITCHES_PER_DAY - used), heldUntil)
}

/** Moves the user to another case on sale (made if there is no other); 429 after the daily allowance. */
export async function switchCase (db: Db, clock: Clock, seriesId: number, userId: number): Promise<CaseView> {
  const series = await requireOnSaleSeries(db, seriesId)
  if (series.kind === 'kuji') throw new ApiFailure(409, 'kuji.oneSet', {}, { reason: 'kuji_one_set' })
  await requireStarted(db, clock, seriesId, userId)
  const now = clock()
  const day = shopDay(now)
  const { caseId, used, heldUntil } = await db.transaction().execute(async trx => {
    // one atomic step: count the switch unless the allowance is used up
    const counted = await trx.insertInto('daily_counters')
      .values({ user_id: userId, name: SWITCH_COUNTER, day, count: 1 })
      .onConflict(oc => oc.columns(['user_id', 'name', 'day'])
        .doUpdateSet({ count: sql<number>`daily_counters.count + 1` })
        .where('daily_counters.count', '<', CASE_SWITCHES_PER_DAY))
      .returning('count')
      .executeTakeFirst()
    if (!counted) {
      const seconds = Math.ceil(msUntilNextDay(now) / 1000)
      throw new ApiFailure(429, 'case.switchLimit', { max: CASE_SWITCHES_PER_DAY }, { switchesLeft: 0, retryAfter: seconds } satisfies CaseSwitchLimitData)
    }
    const current = (await chosenCase(trx, seriesId, userId)) ?? (await onSaleCases(trx, seriesId))[0]
    const others = (await onSaleCases(trx, seriesId)).filter(c => !current || Number(c.id) !== Number(current.id))
    // the next case after the current one, wrapping around; a new one when there is no other
    const next = others.find(c => current && Number(c.id) > Number(current.id)) ?? others[0]
    const target = next ? Number(next.id) : await createCase(trx, clock, seriesId)
    // no other case, and the warehouse cannot fill a new one: nothing to switch to (the count is undone)
    if (target === null) throw current ? new ApiFailure(409, 'case.noOtherCase', {}, { reason: 'no_other_case' }) : soldOut()
    await trx.insertInto('case_choices')
      .values({ user_id: userId, series_id: seriesId, case_id: target, updated_at: iso(now) })
      .onConflict(oc => oc.columns(['user_id', 'series_id']).doUpdateSet({ case_id: target, updated_at: iso(now) }))
      .execute()
    // the case switched to is held for them if nobody else holds it (the one left is let go)
    await trx.deleteFrom('case_leases').where('user_id', '=', userId).where('case_id', '!=', target)
      .where('case_id', 'in', trx.selectFrom('cases').select('id').where('series_id', '=', seriesId)).execute()
    const held = await takeLease(trx, target, userId, now)
    return { caseId: target, used: counted.count, heldUntil: held ? iso(now + CASE_LEASE_MS) : null }
  })
  const c = await db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow()
  return caseView(db, c, Math.max(0, CASE_SWITCHES_PER_DAY - used), heldUntil)
}

export function proofOf (c: CaseRowDb): CaseProof {
  const revealed = c.status !== 'on_sale' && c.revealed_at !== null
  const proof: CaseProof = {
    caseId: Number(c.id),
    seriesId: Number(c.series_id),
    commit: c.commit_hash,
    status: c.status,
    revealed
  }
  if (revealed) {
    proof.arrangement = JSON.parse(c.arrangement) as number[]
    proof.salt = c.salt
  }
  return proof
}

/** The commitment of a case of a published series, with the arrangement and salt once revealed. */
export async function caseProof (db: Db, caseId: number): Promise<CaseProof> {
  const c = await db.selectFrom('cases').innerJoin('series', 'series.id', 'cases.series_id')
    .selectAll('cases')
    .where('cases.id', '=', caseId).where('series.status', 'in', ['on_sale', 'retired'])
    .executeTakeFirst()
  if (!c) throw fail.notFound('case.notFound')
  return proofOf(c)
}
