/** The operator's sales report (types/salesReport.ts): the figures, and the same as an xlsx file. */
import type { SalesReportRequest, salesReportRoutes } from '~types/salesReport'
import { downloadXlsx } from './data'
import { postRoute } from './request'

type R = typeof salesReportRoutes

export const salesReportApi = {
  report: (range: SalesReportRequest) => postRoute<R['salesReport']>('/api/operator/salesReport', range),
  /** Saves the report as `sales_<random>.xlsx`; resolves with the file name. */
  export: (range: SalesReportRequest) => downloadXlsx('/api/operator/salesReportExport', { ...range }, 'sales')
}
