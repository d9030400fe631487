/**
 * Raffle drops (抽签购买, issue 51 item 4; types/raffle.ts, docs/decisions/raffle.md).
 *
 * A drop made with raffle settings (drops.ts createDrop) has a seed whose hash is published with it.
 * From its start until raffle_closes_at, each account may enter once (raffle_entries, one row per account:
 * every phone of it holds the one entry) and is given a random code. The first call that looks at the
 * raffle after the close draws it, in one transaction holding the drop's row (so two processes never
 * draw twice): the list is the codes in ascending order, its hash is stored, and fairPicks over it picks
 * as many winners as the drop has places; each may buy for raffle_claim_s. When every first-round winner's
 * time is over, the places of those who bought nothing are drawn the same way among the entries that have
 * not won (round 2, the last). Only a winner within their time may be shown a case of the drop or buy
 * (dropQueue.ts requireLetIn asks here), and the drop's limits per account cap what they buy.
 */
import { randomBytes } from 'node:crypto'
import type { RaffleProof, RaffleView } from '../../../../types/raffle'
import { RAFFLE_ROUNDS_MAX } from '../../../../types/raffle'
import { raffleListHash, raffleWinners } from '../../../../types/raffleCheck'
import type { Db } from '../../db'
import { dialectOf, forUpdate } from '../../db/lock'
import { isUniqueViolation } from '../../db/errors'
import { iso, type Clock } from '../../core/clock'
import { ApiFailure, fail } from '../../core/errors'
import { rafflePlaces } from './drops'

const columns = ['drops.id', 'drops.series_id', 'drops.starts_at', 'drops.case_count', 'drops.case_size', 'drops.limit_boxes', 'drops.need_phone',
  'drops.raffle_closes_at', 'drops.raffle_claim_s', 'drops.raffle_seed', 'drops.raffle_seed_hash', 'drops.raffle_list_hash', 'drops.raffle_rounds'] as const

async function raffleOf (db: Db, dropId: number) {
  const d = await db.selectFrom('drops').innerJoin('series', 'series.id', 'drops.series_id').select(columns)
    .where('drops.id', '=', dropId).where('series.status', 'in', ['on_sale', 'retired']).executeTakeFirst()
  if (!d) throw fail.notFound('drop.notFound')
  if (d.raffle_closes_at === null) throw new ApiFailure(409, 'raffle.none', {}, { reason: 'no_raffle' })
  return d
}

/** The entries as the list holds them: codes ascending, with who entered and what they won. */
async function entriesOf (db: Db, dropId: number) {
  return db.selectFrom('raffle_entries').select(['user_id', 'code', 'won_round', 'claim_until']).where('drop_id', '=', dropId).orderBy('code').execute()
}

/**
 * Draws what is due: the first round once entries have closed; the second once every first-round
 * winner's time is over and some of them bought nothing. Cheap when nothing is due (one read).
 */
export async function drawDue (db: Db, clock: Clock, dropId: number): Promise<void> {
  const d = await raffleOf(db, dropId)
  const now = clock()
  if (now < Date.parse(d.raffle_closes_at!) || Number(d.raffle_rounds) >= RAFFLE_ROUNDS_MAX) return
  if (Number(d.raffle_rounds) === 1 && !await firstRoundOver(db, dropId, now)) return
  await db.transaction().execute(async trx => {
    // the drop's row: one draw at a time, in every process; what is due is asked again under it (a
    // draw that waited for another sees the round that one drew)
    const locked = await forUpdate(dialectOf(trx), trx.selectFrom('drops').select(['raffle_rounds', 'raffle_seed', 'raffle_list_hash']).where('id', '=', dropId)).executeTakeFirstOrThrow()
    const rounds = Number(locked.raffle_rounds)
    if (rounds >= RAFFLE_ROUNDS_MAX || (rounds === 1 && !await firstRoundOver(trx, dropId, now))) return
    const entries = await entriesOf(trx, dropId)
    const codes = entries.map(e => e.code)
    const until = iso(now + Number(d.raffle_claim_s) * 1000)
    if (rounds === 0) {
      const listHash = raffleListHash(dropId, codes)
      const [winners] = raffleWinners(locked.raffle_seed!, listHash, codes, [rafflePlaces(d)])
      await markWinners(trx, dropId, winners, 1, until)
      await trx.updateTable('drops').set({ raffle_list_hash: listHash, raffle_rounds: 1 }).where('id', '=', dropId).execute()
      return
    }
    // round 2: the places of first-round winners who bought nothing in their time
    const bought = new Set((await trx.selectFrom('drop_buys').select('user_id').where('drop_id', '=', dropId).where('boxes', '>', 0).execute()).map(b => Number(b.user_id)))
    const unclaimed = entries.filter(e => e.won_round === 1 && !bought.has(Number(e.user_id))).length
    const firstRound = entries.filter(e => e.won_round === 1).map(e => e.code)
    const rounds12 = raffleWinners(locked.raffle_seed!, locked.raffle_list_hash!, codes, [firstRound.length, unclaimed])
    // the first round, recomputed, must be the one on record (a changed list would show here)
    if (JSON.stringify([...rounds12[0]].sort()) !== JSON.stringify([...firstRound].sort())) throw new Error(`raffle ${dropId}: the first round does not recompute`)
    await markWinners(trx, dropId, rounds12[1], 2, until)
    await trx.updateTable('drops').set({ raffle_rounds: 2 }).where('id', '=', dropId).execute()
  })
}

/** Every first-round winner's time to buy is over. */
async function firstRoundOver (db: Db, dropId: number, now: number): Promise<boolean> {
  const last = await db.selectFrom('raffle_entries').select(eb => eb.fn.max('claim_until').as('until')).where('drop_id', '=', dropId).where('won_round', '=', 1).executeTakeFirst()
  return !last?.until || Date.parse(String(last.until)) <= now
}

async function markWinners (trx: Db, dropId: number, codes: readonly string[], round: number, until: string): Promise<void> {
  if (!codes.length) return
  await trx.updateTable('raffle_entries').set({ won_round: round, claim_until: until })
    .where('drop_id', '=', dropId).where('code', 'in', [...codes]).where('won_round', 'is', null).execute()
}

/** Only a winner within their time may be shown the drop's cases or buy (409 otherwise, saying which). */
export async function requireRaffleWinner (db: Db, clock: Clock, dropId: number, userId: number | null): Promise<void> {
  await drawDue(db, clock, dropId)
  const entry = userId === null
    ? undefined
    : await db.selectFrom('raffle_entries').select(['won_round', 'claim_until']).where('drop_id', '=', dropId).where('user_id', '=', userId).executeTakeFirst()
  if (!entry || entry.won_round === null) throw new ApiFailure(409, 'raffle.notWinner', {}, { reason: 'raffle', dropId })
  if (entry.claim_until === null || Date.parse(entry.claim_until) <= clock()) throw new ApiFailure(409, 'raffle.claimOver', {}, { reason: 'raffle', dropId })
}

/** POST /api/raffleEnter: one entry per account, within the window (a verified phone when the drop asks). */
export async function raffleEnter (db: Db, clock: Clock, dropId: number, userId: number): Promise<RaffleView> {
  const d = await raffleOf(db, dropId)
  const now = clock()
  if (now < Date.parse(d.starts_at)) throw new ApiFailure(409, 'raffle.notOpen', {}, { reason: 'raffle_not_open', opensAt: iso(Date.parse(d.starts_at)) })
  if (now >= Date.parse(d.raffle_closes_at!)) throw new ApiFailure(409, 'raffle.closed', {}, { reason: 'raffle_closed' })
  if (Number(d.need_phone) === 1) {
    const user = await db.selectFrom('users').select('phone').where('id', '=', userId).executeTakeFirstOrThrow()
    if (!user.phone) throw new ApiFailure(409, 'drop.needPhone', {}, { reason: 'drop_limit', rule: 'verified_phone' })
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await db.insertInto('raffle_entries').values({ drop_id: dropId, user_id: userId, code: randomBytes(8).toString('hex'), entered_at: iso(now) })
        .onConflict(oc => oc.columns(['drop_id', 'user_id']).doNothing()).execute()
      break
    } catch (err) {
      // two entries given one code (one chance in 2^64): the later draws another
      if (!isUniqueViolation(err) || attempt > 2) throw err
    }
  }
  return raffleStatus(db, clock, dropId, userId)
}

/** POST /api/raffleStatus: the raffle's state and the caller's entry (draws what is due first). */
export async function raffleStatus (db: Db, clock: Clock, dropId: number, userId: number | null): Promise<RaffleView> {
  await drawDue(db, clock, dropId)
  const d = await raffleOf(db, dropId)
  const now = clock()
  const [count, mine] = await Promise.all([
    db.selectFrom('raffle_entries').select(eb => eb.fn.countAll<number>().as('n')).where('drop_id', '=', dropId).executeTakeFirstOrThrow(),
    userId === null
      ? Promise.resolve(undefined)
      : db.selectFrom('raffle_entries').select(['code', 'won_round', 'claim_until']).where('drop_id', '=', dropId).where('user_id', '=', userId).executeTakeFirst()
  ])
  const rounds = Number(d.raffle_rounds)
  const closed = now >= Date.parse(d.raffle_closes_at!)
  const state = rounds > 0 ? 'drawn' : closed ? 'closed' : now >= Date.parse(d.starts_at) ? 'open' : 'before'
  const claimUntil = mine?.claim_until ? iso(Date.parse(mine.claim_until)) : null
  const result = !mine ? 'none'
    : mine.won_round !== null ? (Date.parse(claimUntil!) > now ? 'won' : 'expired')
      : rounds >= RAFFLE_ROUNDS_MAX ? 'lost' : 'entered'
  return {
    dropId,
    seriesId: Number(d.series_id),
    state,
    opensAt: iso(Date.parse(d.starts_at)),
    closesAt: iso(Date.parse(d.raffle_closes_at!)),
    claimMinutes: Math.round(Number(d.raffle_claim_s) / 60),
    places: rafflePlaces(d),
    entries: Number(count.n),
    rounds,
    seedHash: d.raffle_seed_hash!,
    seed: rounds > 0 ? d.raffle_seed : null,
    listHash: d.raffle_list_hash,
    mine: result,
    myCode: mine?.code ?? null,
    wonRound: mine?.won_round ?? null,
    claimUntil,
    needsPhone: Number(d.need_phone) === 1
  }
}

/** POST /api/raffleProof: the seed's hash; after the close the list and its hash; each round's winners and the seed once drawn. */
export async function raffleProof (db: Db, clock: Clock, dropId: number): Promise<RaffleProof> {
  await drawDue(db, clock, dropId)
  const d = await raffleOf(db, dropId)
  const rounds = Number(d.raffle_rounds)
  const entries = rounds > 0 ? await entriesOf(db, dropId) : []
  return {
    dropId,
    places: rafflePlaces(d),
    seedHash: d.raffle_seed_hash!,
    seed: rounds > 0 ? d.raffle_seed : null,
    listHash: d.raffle_list_hash,
    codes: rounds > 0 ? entries.map(e => e.code) : null,
    // each round's winners in list order (the draw's own order is recomputed on the phone)
    rounds: Array.from({ length: rounds }, (_, i) => {
      const winners = entries.filter(e => e.won_round === i + 1).map(e => e.code)
      return { round: i + 1, places: winners.length, winners }
    })
  }
}
