/**
 * The sales report as a spreadsheet an operator can read (issue 48): a sheet of days and a sheet of
 * series, columns named in the caller's language (the words of the editor's Data tab, src/locales
 * salesReport.*), money in yuan with two decimals, totals in a last row.
 */
import type { SalesFigures, SalesReport } from '../../../types/salesReport'
import type { Locale } from '../i18n/messages'
import { loadExcel } from './xlsx'

type Column = 'day' | 'purchases' | 'sales' | 'topUps' | 'topUpAmount' | 'withdrawals' | 'withdrawalAmount' | 'props' | 'shipping'
  | 'series' | 'boxes' | 'total'

const WORDS: Record<Locale, { days: string; series: string; columns: Record<Column, string> }> = {
  zh: {
    days: '每日汇总',
    series: '按系列',
    columns: {
      day: '日期', purchases: '购买笔数', sales: '销售额（元）', topUps: '充值笔数', topUpAmount: '充值金额（元）',
      withdrawals: '提现笔数', withdrawalAmount: '提现金额（元）', props: '道具卡（元）', shipping: '运费（元）',
      series: '系列', boxes: '盒数', total: '合计'
    }
  },
  en: {
    days: 'Per day',
    series: 'Per series',
    columns: {
      day: 'Day', purchases: 'Purchases', sales: 'Sales (yuan)', topUps: 'Top-ups', topUpAmount: 'Topped up (yuan)',
      withdrawals: 'Withdrawals', withdrawalAmount: 'Withdrawn (yuan)', props: 'Prop cards (yuan)', shipping: 'Shipping fees (yuan)',
      series: 'Series', boxes: 'Boxes', total: 'Total'
    }
  }
}

export const SALES_EXPORT_WORDS = WORDS

const yuan = (cents: number) => cents / 100
const MONEY = { numFmt: '#,##0.00' }

const figures = (f: SalesFigures) => ({
  purchases: f.purchases,
  sales: yuan(f.salesCents),
  topUps: f.topUps,
  topUpAmount: yuan(f.topUpCents),
  withdrawals: f.withdrawals,
  withdrawalAmount: yuan(f.withdrawalCents),
  props: yuan(f.propsCents),
  shipping: yuan(f.shippingCents)
})

export async function salesWorkbook (report: SalesReport, locale: Locale): Promise<Buffer> {
  const w = WORDS[locale]
  const c = w.columns
  const { Workbook } = await loadExcel()
  const workbook = new Workbook()
  workbook.creator = 'blindbox-shop'

  const days = workbook.addWorksheet(w.days)
  days.columns = [
    { header: c.day, key: 'day', width: 12 },
    { header: c.purchases, key: 'purchases', width: 10 },
    { header: c.sales, key: 'sales', width: 14, style: MONEY },
    { header: c.topUps, key: 'topUps', width: 10 },
    { header: c.topUpAmount, key: 'topUpAmount', width: 14, style: MONEY },
    { header: c.withdrawals, key: 'withdrawals', width: 10 },
    { header: c.withdrawalAmount, key: 'withdrawalAmount', width: 14, style: MONEY },
    { header: c.props, key: 'props', width: 14, style: MONEY },
    { header: c.shipping, key: 'shipping', width: 14, style: MONEY }
  ]
  for (const d of report.days) days.addRow({ day: d.day, ...figures(d) })
  days.addRow({ day: c.total, ...figures(report.totals) }).font = { bold: true }

  const series = workbook.addWorksheet(w.series)
  series.columns = [
    { header: c.series, key: 'series', width: 24 },
    { header: c.purchases, key: 'purchases', width: 10 },
    { header: c.boxes, key: 'boxes', width: 8 },
    { header: c.sales, key: 'sales', width: 14, style: MONEY }
  ]
  for (const s of report.series) {
    series.addRow({ series: locale === 'zh' ? s.name : s.nameEn || s.name, purchases: s.purchases, boxes: s.boxes, sales: yuan(s.salesCents) })
  }
  for (const sheet of [days, series]) {
    sheet.getRow(1).font = { bold: true }
    sheet.views = [{ state: 'frozen', ySplit: 1 }]
  }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}
