/** The operator's sales report (types/salesReport.ts): as data for the editor, and as a spreadsheet. */
import { randomBytes } from 'node:crypto'
import { SALES_REPORT_LIMITS, salesReportRoutes as r, type SalesReportRequest } from '../../../types/salesReport'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { fail } from '../core/errors'
import { XLSX_MIME } from '../data/xlsx'
import { salesWorkbook } from '../data/salesExport'
import { daysBetween, isRealDay, salesReport } from '../domain/ops/salesReport'

/** A real day each, the end not before the start, at most maxDays: else a 400 naming the field. */
function checkRange ({ from, to }: SalesReportRequest): void {
  if (!isRealDay(from)) throw fail.field('from', 'travel.badDate')
  if (!isRealDay(to)) throw fail.field('to', 'travel.badDate')
  if (to < from) throw fail.field('to', 'sales.rangeReversed')
  if (daysBetween(from, to).length > SALES_REPORT_LIMITS.maxDays) throw fail.field('to', 'sales.rangeTooLong', { days: SALES_REPORT_LIMITS.maxDays })
}

export function salesReportRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.salesReport, async ({ body }) => {
    checkRange(body)
    return salesReport(ctx.db, ctx.dialect, body.from, body.to)
  })
  defineRoute(app, ctx, r.salesReportExport, async ({ request, reply, body }) => {
    checkRange(body)
    const file = await salesWorkbook(await salesReport(ctx.db, ctx.dialect, body.from, body.to), request.locale)
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', `attachment; filename="sales-${body.from}-${body.to}-${randomBytes(4).toString('hex')}.xlsx"`)
      .send(file)
  })
}
