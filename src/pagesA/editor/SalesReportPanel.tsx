/**
 * The Data tab's sales report (issue 48; types/salesReport.ts): for a range of days (China time), the
 * totals (sales, top-ups, withdrawals, prop cards, shipping fees), a row per day and a row per series,
 * all from the ledger, and the same as an Excel file. The range starts as the last 7 days; quick
 * choices for 7 and 30 days and this month; a date picker for each end (the server says what is wrong
 * with a range: reversed, too long).
 */
import { useState } from 'react'
import { Picker, ScrollView, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { SalesReportRequest } from '~types/salesReport'
import EmptyState from '@/components/EmptyState'
import { salesReportApi } from '@/services/salesReport'
import { errorMessage } from '@/services/request'
import { localeStore, t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { loading, toast } from '@/utils/feedback'
import { formatCents } from '@/utils/format'
import { serverNow } from '@/utils/serverClock'
import { useRemote } from '@/utils/useRemote'
import './salesReport.scss'

const DAY_MS = 86_400_000
/** A shop day (China time) of an instant, YYYY-MM-DD. */
const shopDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10)

/** The quick ranges, ending today. */
function quickRange (kind: 'last7' | 'last30' | 'thisMonth'): SalesReportRequest {
  const now = serverNow()
  const to = shopDay(now)
  if (kind === 'thisMonth') return { from: `${to.slice(0, 8)}01`, to }
  return { from: shopDay(now - (kind === 'last7' ? 6 : 29) * DAY_MS), to }
}

function SalesReportPanel () {
  const [range, setRange] = useState<SalesReportRequest>(() => quickRange('last7'))
  const report = useRemote(() => salesReportApi.report(range), [range.from, range.to])
  const data = report.loading ? undefined : report.data
  const failed = report.failed && !report.loading ? errorMessage(report.error) : ''

  const exportXlsx = async () => {
    try {
      const name = await loading.wrap(salesReportApi.export(range))
      toast({ message: t('salesReport.exported', { name }), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const quick = (['last7', 'last30', 'thisMonth'] as const).map(kind => {
    const r = quickRange(kind)
    const on = r.from === range.from && r.to === range.to
    return <Text key={kind} className={`chip sales-quick-${kind} ${on ? 'chip--on' : ''}`} onClick={() => setRange(r)}>{t(`salesReport.${kind}`)}</Text>
  })
  const end = (side: 'from' | 'to') => (
    <View className={`sales-report__end sales-${side}`}>
      <Text className='editor-label'>{t(`salesReport.${side}`)}</Text>
      <Picker mode='date' value={range[side]} onChange={e => setRange(r => ({ ...r, [side]: String(e.detail.value) }))}>
        <View className='editor-input sales-report__date'>{range[side]}</View>
      </Picker>
    </View>
  )
  const figure = (label: MessageKey, cents: number, note?: string, cls = '') => (
    <View className={`sales-figure ${cls}`}>
      <Text className='sales-figure__label'>{t(label)}</Text>
      <Text className='sales-figure__value'>{formatCents(cents)}</Text>
      {note && <Text className='sales-figure__note'>{note}</Text>}
    </View>
  )

  return (
    <View className='sales-report'>
      <View className='sales-report__quick'>{quick}</View>
      <View className='sales-report__range'>{end('from')}{end('to')}</View>
      <View className='data-tab__bar'>
        <Text className='editor-hint'>{t('salesReport.hint')}</Text>
        <Text className='chip sales-export' onClick={() => { void exportXlsx() }}>{t('salesReport.export')}</Text>
      </View>
      {!data && !failed && <Text className='editor-hint'>{t('feedback.loading')}</Text>}
      {failed && <EmptyState icon='📊' text={failed} action={{ label: t('feedback.retry'), onClick: report.retry }} />}
      {data && (
        <>
          <View className='sales-figures'>
            {figure('salesReport.sales', data.totals.salesCents, t('salesReport.purchases', { n: data.totals.purchases }), 'sales-total-sales')}
            {figure('salesReport.topUps', data.totals.topUpCents, t('salesReport.topUpCount', { n: data.totals.topUps }), 'sales-total-topups')}
            {figure('salesReport.withdrawals', data.totals.withdrawalCents, t('salesReport.topUpCount', { n: data.totals.withdrawals }), 'sales-total-withdrawals')}
            {figure('salesReport.props', data.totals.propsCents, undefined, 'sales-total-props')}
            {figure('salesReport.shipping', data.totals.shippingCents, undefined, 'sales-total-shipping')}
          </View>

          <Text className='sales-report__heading'>{t('salesReport.perDay')}</Text>
          <ScrollView className='data-grid sales-days' scrollX>
            <View className='data-grid__row data-grid__row--head'>
              {(['day', 'sales', 'topUps', 'withdrawals', 'props', 'shipping'] as const).map(k => <Text key={k} className='data-grid__cell'>{t(`salesReport.${k}`)}</Text>)}
            </View>
            {[...data.days].reverse().map(d => (
              <View key={d.day} className={`data-grid__row sales-day-${d.day}`}>
                <Text className='data-grid__cell'>{d.day}</Text>
                {[d.salesCents, d.topUpCents, d.withdrawalCents, d.propsCents, d.shippingCents].map((c, i) => <Text key={i} className='data-grid__cell sales-cell--money'>{formatCents(c)}</Text>)}
              </View>
            ))}
          </ScrollView>

          <Text className='sales-report__heading'>{t('salesReport.perSeries')}</Text>
          {data.series.length === 0
            ? <Text className='editor-hint sales-none'>{t('salesReport.noSales')}</Text>
            : (
              <View className='sales-series'>
                {data.series.map(s => (
                  <View key={s.seriesId} className={`sales-series__row sales-series-${s.seriesId}`}>
                    <Text className='sales-series__name'>{(localeStore.locale === 'zh' ? s.name : s.nameEn || s.name) || `#${s.seriesId}`}</Text>
                    <Text className='sales-series__count'>{t('salesReport.purchases', { n: s.purchases })} · {t('salesReport.boxCount', { n: s.boxes })}</Text>
                    <Text className='sales-series__money'>{formatCents(s.salesCents)}</Text>
                  </View>
                ))}
              </View>
              )}
        </>
      )}
    </View>
  )
}

export default observer(SalesReportPanel)
