/** Spreadsheet export (exceljs): one sheet, a header row of field names, one row per record. */
import type { Row } from './repository'
import type { TableSpec } from './tables'

/**
 * exceljs, loaded with the first export rather than at start: it is 666 files and half a second of
 * CPU, for a call operators make now and then (every process and every test paid it at start).
 */
export const loadExcel = async () => (await import('exceljs')).default

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

export async function toXlsx (sheetName: string, spec: TableSpec, rows: Row[]): Promise<Buffer> {
  const { Workbook } = await loadExcel()
  const workbook = new Workbook()
  workbook.creator = 'blindbox-shop'
  const sheet = workbook.addWorksheet(sheetName.slice(0, 31))
  const fields = Object.entries(spec.fields)
  sheet.columns = fields.map(([name, f]) => ({
    header: name,
    key: name,
    width: f.kind === 'timestamp' ? 24 : Math.max(12, name.length + 2),
    style: f.kind === 'timestamp' ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : {}
  }))
  sheet.getRow(1).font = { bold: true }
  sheet.views = [{ state: 'frozen', ySplit: 1 }]
  for (const row of rows) {
    const values: Record<string, unknown> = {}
    for (const [name, f] of fields) {
      const v = row[name]
      values[name] = f.kind === 'timestamp' && typeof v === 'string' ? new Date(v) : v
    }
    sheet.addRow(values)
  }
  return Buffer.from(await workbook.xlsx.writeBuffer())
}
