/** Helpers of the shop suites: series, shoppers with a verified age and money (through the sandbox). */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { TOPUP_PRODUCT_ID } from '../../../types/shop'
import type { Rarity } from '../../../types/shop'
import { markGuardianRequested, recordGuardianConsent } from '../../../server/src/domain/account/age'
import type { Db } from '../../../server/src/db'
import { createSeries, type SeriesInput } from '../../../server/src/domain/catalogue/catalogue'
import { loginToken, makeUser, post, type TestClock } from './app'

let seriesCounter = 0

export interface SeriesOptions {
  regular?: number
  rare?: number
  hidden?: boolean
  hiddenCasePpm?: number
  priceCents?: number
  status?: 'draft' | 'on_sale' | 'retired'
  /**
   * Figures of each design on hand (default 100,000: the suites that are not about stock never run
   * out; the stock suite counts them exactly).
   */
  stock?: number
}

export function seriesInput (o: SeriesOptions = {}): SeriesInput {
  seriesCounter++
  const regular = o.regular ?? 9
  const rare = o.rare ?? 3
  const hidden = o.hidden ?? true
  const design = (rarity: Rarity, i: number) => ({
    name: { zh: `${rarity}-${i}`, en: `${rarity} ${i}` },
    image: `/media/art/1f4${String(i).padStart(2, '0')}.webp`,
    rarity,
    referenceValueCents: rarity === 'regular' ? 3000 + i : rarity === 'rare' ? 9000 + i : 50000,
    recycleValueCents: rarity === 'regular' ? 500 : rarity === 'rare' ? 2000 : 10000,
    stock: o.stock ?? 100_000
  })
  return {
    title: { zh: `测试系列 ${seriesCounter}`, en: `Test series ${seriesCounter}` },
    description: { zh: '描述', en: 'Description' },
    rules: { zh: '规则', en: 'Rules' },
    cover: '/media/art/1f381.webp',
    priceCents: o.priceCents ?? 1000,
    hiddenCasePpm: hidden ? (o.hiddenCasePpm ?? 83333) : 0,
    status: o.status ?? 'on_sale',
    designs: [
      ...Array.from({ length: regular }, (_, i) => design('regular', i + 1)),
      ...Array.from({ length: rare }, (_, i) => design('rare', i + 1)),
      ...(hidden ? [design('hidden', 1)] : [])
    ]
  }
}

export async function makeSeries (db: Db, clock: TestClock, o: SeriesOptions = {}): Promise<number> {
  return createSeries(db, clock.now, seriesInput(o))
}

export interface Shopper { id: number; token: string; userName: string }

/**
 * A logged-in shopper; `birthDate` (default an adult's) is verified unless null. A minor with
 * `guardianConsent` has it recorded as guardianConfirm records it (the code flow itself is tested in
 * guardian-consent.test.ts); a minor without it is left asking.
 */
export async function makeShopper (app: FastifyInstance, db: Db, clock: TestClock, birthDate: string | null = '1990-05-01', guardianConsent?: boolean): Promise<Shopper> {
  const user = await makeUser(db, clock)
  const token = await loginToken(app, user.user_name!, user.password)
  if (birthDate) {
    const r = await post(app, '/api/ageVerify', { birthDate }, { token })
    const minorAsking = r.body.code === 422 && r.body.data?.reason === 'guardian_consent'
    if (r.body.code !== 200 && !minorAsking) throw new Error(`ageVerify: ${JSON.stringify(r.body)}`)
    if (minorAsking && guardianConsent) {
      const guardianPhone = '13900000000'
      await markGuardianRequested(db, clock.now, Number(user.id), guardianPhone)
      if (!await recordGuardianConsent(db, clock.now, Number(user.id), guardianPhone)) throw new Error('guardian consent not recorded')
    } else if (minorAsking && guardianConsent === undefined) {
      throw new Error(`ageVerify: ${JSON.stringify(r.body)}`)
    }
  }
  return { id: Number(user.id), token, userName: user.user_name! }
}

/** Tops the cash balance up through the order flow and the sandbox; answers the opId. */
export async function topUp (app: FastifyInstance, s: Shopper, amountCents: number): Promise<string> {
  const no = await post(app, '/generalOrder/getUniqueOrderNo', { productId: TOPUP_PRODUCT_ID, userId: s.id }, { token: s.token })
  if (no.body.code !== 200) throw new Error(`getUniqueOrderNo: ${JSON.stringify(no.body)}`)
  const opId = no.body.data as string
  const created = await post(app, '/generalOrder/create', { productId: TOPUP_PRODUCT_ID, userId: s.id, opId, amountCents, channel: 'sandbox' }, { token: s.token })
  if (created.body.code !== 200) throw new Error(`create: ${JSON.stringify(created.body)}`)
  const paid = await post(app, '/api/sandboxPay', { opId }, { token: s.token })
  if (paid.body.code !== 200) throw new Error(`sandboxPay: ${JSON.stringify(paid.body)}`)
  return opId
}

/**
 * Prizes of these designs in a shopper's warehouse, as purchases would have left them: each holds a
 * figure of the warehouse's stock (designs.committed), as a sold slot's prize does.
 */
export async function givePrizes (db: Db, clock: TestClock, userId: number, seriesId: number, designIds: readonly number[]): Promise<number[]> {
  const now = new Date(clock.now()).toISOString()
  const rows = await db.insertInto('prizes').values(designIds.map(d => ({
    user_id: userId, series_id: seriesId, design_id: d, case_id: null, slot: null, status: 'warehouse' as const, created_at: now, updated_at: now
  }))).returning('id').execute()
  for (const d of designIds) await db.updateTable('designs').set({ committed: sql<number>`committed + 1` }).where('id', '=', d).execute()
  return rows.map(r => Number(r.id))
}

let keyCounter = 0
export const newKey = (prefix = 'key') => `${prefix}-${Date.now().toString(36)}-${++keyCounter}`

export async function currentCaseId (app: FastifyInstance, seriesId: number, token?: string): Promise<number> {
  const r = await post(app, '/api/caseCurrent', { seriesId }, { token })
  if (r.body.code !== 200) throw new Error(`caseCurrent: ${JSON.stringify(r.body)}`)
  return r.body.data.caseId
}

export const buy = (app: FastifyInstance, s: Shopper, body: Record<string, unknown>, lang?: string) =>
  post(app, '/api/casePurchase', { acknowledged: true, idempotencyKey: newKey(), ...body }, { token: s.token, lang })
