/**
 * The collection as a spreadsheet a person can read (issue 8): one row per prize, columns named in the
 * caller's language, values as the app shows them (series and design names, rarity and status words,
 * money in yuan, dates as dates), never raw ids of designs or status codes. The rarity and status words
 * are the app's own (src/locales: rarity.*, collection.*, parcel.*; test/server/after-draw.test.ts
 * compares them), and a prize on its way is named by its parcel's state, as the app names it.
 */
import type { Kysely } from 'kysely'
import type { PrizeStatus, Rarity } from '../../../types/shop'
import type { Database } from '../db/schema'
import type { Locale } from '../i18n/messages'
import { loadSeries } from '../domain/catalogue/catalogue'
import { parcelStatuses } from '../domain/prizes/prizes'
import { loadExcel } from './xlsx'

type Db = Kysely<Database>

/** At most this many rows (the newest). */
export const PRIZE_EXPORT_MAX_ROWS = 5000

const WORDS: Record<Locale, {
  sheet: string
  columns: Record<'prize' | 'series' | 'design' | 'rarity' | 'status' | 'caseNo' | 'slot' | 'combineNo' | 'value' | 'recycle' | 'drawn' | 'updated', string>
  rarity: Record<Rarity, string>
  status: Record<PrizeStatus, string>
  /** A shipping prize by the state of its parcel. */
  parcel: Record<'requested' | 'shipping', string>
}> = {
  zh: {
    sheet: '我的盲盒',
    columns: { prize: '奖品编号', series: '系列', design: '款式', rarity: '稀有度', status: '状态', caseNo: '箱号', slot: '盒号', combineNo: '合成编号', value: '参考价值（元）', recycle: '回收价值（元）', drawn: '抽中时间', updated: '最后变动' },
    rarity: { regular: '普通款', rare: '稀有款', hidden: '隐藏款' },
    status: { warehouse: '仓库中', shipping: '发货中', received: '已签收', combined: '已合成', recycled: '已回收' },
    parcel: { requested: '待发货', shipping: '运输中' }
  },
  en: {
    sheet: 'My blind boxes',
    columns: { prize: 'Prize no.', series: 'Series', design: 'Design', rarity: 'Rarity', status: 'Status', caseNo: 'Case no.', slot: 'Box no.', combineNo: 'Combine no.', value: 'Reference value (yuan)', recycle: 'Recycle value (yuan)', drawn: 'Drawn at', updated: 'Last change' },
    rarity: { regular: 'Regular', rare: 'Rare', hidden: 'Hidden' },
    status: { warehouse: 'In warehouse', shipping: 'Shipping', received: 'Received', combined: 'Combined', recycled: 'Recycled' },
    parcel: { requested: 'Waiting to be shipped', shipping: 'On its way' }
  }
}

/** The words of the export (for the test that holds them to the app's). */
export const EXPORT_WORDS = WORDS

/** A prize's status as the app shows it: a shipping prize by its parcel (waiting or on its way). */
export function statusWord (w: typeof WORDS[Locale], status: PrizeStatus, parcel: 'requested' | 'shipping' | 'received' | undefined): string {
  if (status === 'shipping' && (parcel === 'requested' || parcel === 'shipping')) return w.parcel[parcel]
  return w.status[status]
}

export async function prizeWorkbook (db: Db, userId: number, locale: Locale, status?: PrizeStatus): Promise<Buffer> {
  let q = db.selectFrom('prizes').selectAll().where('user_id', '=', userId)
  if (status) q = q.where('status', '=', status)
  const rows = await q.orderBy('id', 'desc').limit(PRIZE_EXPORT_MAX_ROWS).execute()
  const series = await loadSeries(db, rows.map(r => Number(r.series_id)), true)
  const parcels = await parcelStatuses(db, rows)
  const w = WORDS[locale]
  const { Workbook } = await loadExcel()
  const workbook = new Workbook()
  workbook.creator = 'blindbox-shop'
  const sheet = workbook.addWorksheet(w.sheet)
  const c = w.columns
  sheet.columns = [
    { header: c.prize, key: 'prize', width: 10 },
    { header: c.series, key: 'series', width: 22 },
    { header: c.design, key: 'design', width: 22 },
    { header: c.rarity, key: 'rarity', width: 10 },
    { header: c.status, key: 'status', width: 12 },
    { header: c.caseNo, key: 'caseNo', width: 10 },
    { header: c.slot, key: 'slot', width: 8 },
    { header: c.combineNo, key: 'combineNo', width: 12 },
    { header: c.value, key: 'value', width: 16, style: { numFmt: '#,##0.00' } },
    { header: c.recycle, key: 'recycle', width: 16, style: { numFmt: '#,##0.00' } },
    { header: c.drawn, key: 'drawn', width: 20, style: { numFmt: 'yyyy-mm-dd hh:mm' } },
    { header: c.updated, key: 'updated', width: 20, style: { numFmt: 'yyyy-mm-dd hh:mm' } }
  ]
  sheet.getRow(1).font = { bold: true }
  sheet.views = [{ state: 'frozen', ySplit: 1 }]
  const name = (zh: string, en: string) => (locale === 'zh' ? zh : en || zh)
  // dates in China time, as the shop's days are
  const local = (isoTime: string) => new Date(Date.parse(isoTime) + 8 * 3600_000)
  for (const r of rows) {
    const s = series.get(Number(r.series_id))
    const d = s?.designs.find(x => Number(x.id) === Number(r.design_id))
    sheet.addRow({
      prize: Number(r.id),
      series: s ? name(s.row.name, s.row.name_en) : '',
      design: d ? name(d.name, d.name_en) : '',
      rarity: d ? w.rarity[d.rarity] : '',
      status: statusWord(w, r.status, parcels.get(Number(r.id))),
      caseNo: r.case_id === null ? '' : Number(r.case_id),
      slot: r.slot === null ? '' : Number(r.slot),
      // a prize made by combining has no case: its combine instead
      combineNo: r.combine_id === null ? '' : Number(r.combine_id),
      value: d ? Number(d.reference_value_cents) / 100 : null,
      recycle: d ? Number(d.recycle_value_cents) / 100 : null,
      drawn: local(r.created_at),
      updated: local(r.updated_at)
    })
  }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}
