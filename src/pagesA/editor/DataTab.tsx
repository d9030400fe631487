/**
 * The editor's Data tab (issue 24 item 4; issue 48): the sales report first (SalesReportPanel), then the tables of the generic table API (spec 7; types/data.ts
 * DATA_TABLE_NAMES), a page of rows at a time (POST /api/data/invoke?method=page), sorted newest first, and
 * "export as xlsx" (POST /api/data/export through the download helper, services/data.ts). Catalogue
 * tables are the shop's; addresses and prizes are the operator's own, as the API serves them to anyone.
 * The table last looked at is remembered on this device (utils/storage.ts). Columns are named and values
 * shown as an operator reads them (dataColumns.ts: money in yuan, odds in %, statuses as words).
 */
import { useState } from 'react'
import { ScrollView, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { DataTable } from '~types/data'
import { DATA_TABLE_NAMES } from '~types/limits'
import EmptyState from '@/components/EmptyState'
import { exportTable, invokeTable } from '@/services/data'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { loading, toast } from '@/utils/feedback'
import { readVariable, writeVariable } from '@/utils/storage'
import { useRemote } from '@/utils/useRemote'
import { cellText, columnLabel } from './dataColumns'
import SalesReportPanel from './SalesReportPanel'
import './data.scss'

const TABLES: readonly DataTable[] = DATA_TABLE_NAMES
const PAGE_SIZE = 20
const REMEMBERED = 'editor.dataTable'

type Row = Record<string, unknown>
/** What the tab shows: the sales report or a table. */
type View = 'sales' | DataTable

function DataTab () {
  const [view, setView] = useState<View>(() => {
    const last = readVariable<string>(REMEMBERED)
    return TABLES.includes(last as DataTable) ? last as DataTable : 'sales'
  })
  const table: DataTable = view === 'sales' ? 'series' : view
  const [page, setPage] = useState(1)
  const answer = useRemote(
    () => invokeTable<{ list: Row[]; total: number }>(table, 'page', { page, size: PAGE_SIZE, orderBy: 'id', order: 'desc' }),
    [table, page], { enabled: view !== 'sales' })
  // null while a page loads; none after a failure (said in the empty state); the count stays the last known
  const rows = answer.loading ? null : answer.failed ? [] : answer.data?.list ?? null
  const failed = answer.failed ? errorMessage(answer.error) : ''
  const total = answer.data?.total ?? 0

  const choose = (next: View) => {
    writeVariable(REMEMBERED, next)
    setView(next)
    setPage(1)
  }
  const exportXlsx = async () => {
    try {
      const name = await loading.wrap(exportTable(table, { orderBy: 'id', order: 'desc' }))
      toast({ message: t('dataTab.exported', { name }), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  // the columns as the server sends them (its schema's order; the page carries no schema code)
  const columns = rows?.length ? Object.keys(rows[0]) : []
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE))
  return (
    <View className='data-tab'>
      <View className='data-tab__tables'>
        <Text className={`chip data-table-sales ${view === 'sales' ? 'chip--on' : ''}`} onClick={() => choose('sales')}>{t('dataTab.sales')}</Text>
        {TABLES.map(name => (
          <Text key={name} className={`chip data-table-${name} ${name === view ? 'chip--on' : ''}`} onClick={() => choose(name)}>{t(`dataTab.table.${name}` as MessageKey)}</Text>
        ))}
      </View>
      {view === 'sales' ? <SalesReportPanel /> : (
        <>
          <View className='data-tab__bar'>
            <Text className='data-tab__count'>{t('dataTab.count', { total })}</Text>
            <Text className='chip data-export' onClick={() => { void exportXlsx() }}>{t('dataTab.export')}</Text>
          </View>
          {rows === null && <Text className='editor-hint'>{t('feedback.loading')}</Text>}
          {rows && rows.length === 0 && <EmptyState icon='🗂️' text={failed || t('dataTab.empty')} />}
          {rows && rows.length > 0 && (
            <ScrollView className='data-grid' scrollX>
              <View className='data-grid__row data-grid__row--head'>
                {columns.map(c => <Text key={c} className={`data-grid__cell data-col-${c}`}>{columnLabel(c)}</Text>)}
              </View>
              {rows.map((r, i) => (
                <View key={String(r.id ?? i)} className={`data-grid__row data-row-${String(r.id ?? i)}`}>
                  {columns.map(c => <Text key={c} className='data-grid__cell'>{cellText(c, r[c])}</Text>)}
                </View>
              ))}
            </ScrollView>
          )}
          {total > PAGE_SIZE && (
            <View className='data-tab__pager'>
              <Text className={`chip data-prev ${page <= 1 ? 'chip--off' : ''}`} onClick={() => page > 1 && setPage(page - 1)}>{t('shipments.prev')}</Text>
              <Text className='data-tab__page'>{t('dataTab.page', { page, pages })}</Text>
              <Text className={`chip data-next ${page >= pages ? 'chip--off' : ''}`} onClick={() => page < pages && setPage(page + 1)}>{t('shipments.next')}</Text>
            </View>
          )}
        </>
      )}
    </View>
  )
}

export default observer(DataTab)
