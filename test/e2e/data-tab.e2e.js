/**
 * The editor's Data tab (issue 24 item 4; the generic table API; issue 48): it opens on the sales report
 * (figures from the ledger, exported as xlsx with a sheet of days and one of series); the operator browses the series and
 * the designs a page at a time (POST /api/data/invoke?method=page), exports the designs as xlsx (POST
 * /api/data/export; the file is read back with exceljs: one row per design), and finds the table they
 * looked at last chosen again after a reload (the storage helper). Columns are named in Chinese and money
 * reads in yuan, never as price_cents.
 */
const assert = require('node:assert/strict')
const ExcelJS = require('exceljs')
const { openPhonePage, passwordLogin } = require('./browser')

async function run ({ base }) {
  const count = async (table) => {
    const res = await fetch(`${base}/dev-api/api/data/invoke?table=${table}&method=page`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ page: 1, size: 1 }) })
    return (await res.json()).data.total
  }
  const designs = await count('designs')
  assert.ok(designs > 20, `more designs than a page (${designs})`)
  const { page, errors, close, input, shot } = await openPhonePage({ locale: 'zh-CN' })
  try {
    await passwordLogin({ page, input }, base, 'operator', 'operator123')
    await page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
    await page.locator('.editor-tab-data').click()
    // the sales report first: the last 7 days, totals, a row per day, the series sold
    await page.locator('.data-table-sales.chip--on').waitFor()
    await page.locator('.sales-total-sales .sales-figure__value').waitFor()
    assert.match(await page.locator('.sales-total-sales .sales-figure__value').innerText(), /^¥[\d,]+\.\d{2}$/)
    assert.equal(await page.locator('.sales-days .data-grid__row:not(.data-grid__row--head)').count(), 7)
    await shot('sales-report-zh.png')
    const salesDownload = page.waitForEvent('download')
    await page.locator('.sales-export').click()
    const salesFile = await salesDownload
    assert.match(salesFile.suggestedFilename(), /^sales_[A-Za-z0-9]{8}\.xlsx$/)
    const salesBook = new ExcelJS.Workbook()
    await salesBook.xlsx.readFile(await salesFile.path())
    assert.deepEqual(salesBook.worksheets.map(w => w.name), ['每日汇总', '按系列'])
    assert.equal(salesBook.worksheets[0].actualRowCount, 1 + 7 + 1, 'a header, 7 days and the total')

    await page.locator('.data-table-series').click()
    await page.locator('.data-table-series.chip--on').waitFor()
    await page.locator('.data-grid__row--head').waitFor()
    assert.equal(await page.locator('.data-tab__count').innerText(), `共 ${await count('series')} 行`)
    // columns by name, money in yuan, odds in %
    const head = await page.locator('.data-grid__row--head').innerText()
    assert.doesNotMatch(head, /[a-z]_[a-z]|[A-Za-z]{2,}/, `column names: ${head}`)
    assert.match(head, /单盒价格/)
    assert.match(await page.locator('.data-grid__row:not(.data-grid__row--head)').first().innerText(), /¥\d[\d,]*\.\d{2}[\s\S]*%/)
    await shot('data-tab-series-zh.png')

    await page.locator('.data-table-designs').click()
    await page.waitForFunction(n => document.querySelector('.data-tab__count')?.textContent === `共 ${n} 行`, designs)
    assert.equal(await page.locator('.data-grid__row:not(.data-grid__row--head)').count(), 20)
    const firstPage = await page.locator('.data-grid__row:not(.data-grid__row--head)').first().innerText()
    await page.locator('.data-next').click()
    await page.waitForFunction(first => document.querySelector('.data-grid__row:not(.data-grid__row--head)')?.textContent !== first.replace(/\s+/g, ''), firstPage)
    await shot('data-tab-zh.png')

    const download = page.waitForEvent('download')
    await page.locator('.data-export').click()
    const file = await download
    assert.match(file.suggestedFilename(), /^designs_[A-Za-z0-9]{8}\.xlsx$/)
    const book = new ExcelJS.Workbook()
    await book.xlsx.readFile(await file.path())
    const sheet = book.worksheets[0]
    assert.equal(sheet.actualRowCount - 1, designs, 'a header and one row per design')

    // the table looked at last is chosen again
    await page.reload({ waitUntil: 'networkidle' })
    await page.locator('.editor-tab-data').click()
    await page.locator('.data-table-designs.chip--on').waitFor()
    assert.deepEqual(errors, [])
  } finally {
    await close()
  }
}

module.exports = { name: 'data tab: browse and export the tables', run }
