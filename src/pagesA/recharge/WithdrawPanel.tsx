import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { WithdrawalView, WithdrawInfo } from '~types/withdraw'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { withdrawApi } from '@/services/withdraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { AMOUNT_INPUT_TYPE, formatCents, formatTime, parseYuan } from '@/utils/format'
import { useRequestKeys } from '@/utils/requestKey'
import { usePagedList } from '@/utils/useRemote'

const LIST_PAGE = 20

export interface WithdrawPanelProps {
  /** Bumped by the page when the balance may have changed (a top-up): the figures are read again. */
  refreshKey: number
  /** Called after a request, so the page shows the new balance and ledger. */
  onChanged: () => void
}

/** The withdraw form (withdrawable cash, minimum, daily limit) and the shopper's withdrawals. */
function WithdrawPanel ({ refreshKey, onChanged }: WithdrawPanelProps) {
  const [text, setText] = useState('')
  const [busy, setBusy] = useState(false)
  // one key per amount asked: a retry after a lost answer is the same request, never a second withdrawal
  const keys = useRequestKeys()

  // the figures come with each page of the list, read again when refreshKey changes
  const withdrawals = usePagedList(async (page, size) => {
    const [info, l] = await Promise.all([withdrawApi.info(), withdrawApi.list(page, size)])
    return { ...l, info }
  }, { pageSize: LIST_PAGE, deps: [refreshKey], onError: e => toast({ message: errorMessage(e) }) })
  const info: WithdrawInfo | null = withdrawals.last?.info ?? null
  const list: WithdrawalView[] = withdrawals.items ?? []
  const total = withdrawals.total

  const amount = text ? parseYuan(text) : null
  const left = info ? Math.max(0, info.dailyMaxCents - info.usedTodayCents) : 0
  const error = !text || !info
    ? null
    : amount === null
      ? t('withdraw.invalid')
      : amount < info.minCents
        ? t('withdraw.belowMin', { min: formatCents(info.minCents) })
        : amount > info.cashCents
          ? t('withdraw.overCash', { cash: formatCents(info.cashCents) })
          : amount > left ? t('withdraw.overDaily', { left: formatCents(left) }) : null

  const submit = async () => {
    // an error is shown under the amount already (a toast would cover it)
    if (busy || amount === null || error) return
    setBusy(true)
    try {
      await loading.wrap(withdrawApi.request({ amountCents: amount, idempotencyKey: keys.keyFor(String(amount)) }))
      keys.done()
      toast({ message: t('withdraw.submitted'), level: 'success' })
      setText('')
      // the page reads the balance and ledger again, and bumps refreshKey: this panel reloads with it
      onChanged()
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  return (
    <View className='withdraw-panel'>
      <Section title={t('withdraw.title')}>
        <View className='withdraw-figures'>
          <Text className='withdraw-figures__label'>{t('withdraw.available')}</Text>
          <Text className='withdraw-figures__cash'>{info ? formatCents(info.cashCents) : '—'}</Text>
        </View>
        {info && (
          <Text className='withdraw-rules'>
            {t('withdraw.rules', { min: formatCents(info.minCents), max: formatCents(info.dailyMaxCents), left: formatCents(left) })}
          </Text>
        )}
        <Text className='withdraw-note'>{t('withdraw.creditNote')}</Text>
        <View className='withdraw-input-row'>
          <Input className={`custom-amount withdraw-amount ${error ? 'custom-amount--error' : ''}`} type={AMOUNT_INPUT_TYPE} value={text}
            placeholder={t('withdraw.amount')} onInput={e => setText(e.detail.value)} />
          <View className='withdraw-all' onClick={() => info && setText((Math.min(info.cashCents, left) / 100).toFixed(2))}>{t('withdraw.all')}</View>
        </View>
        {error && <Text className='recharge-error withdraw-error'>{error}</Text>}
        <View className={`btn btn--primary withdraw-submit ${busy || error || amount === null ? 'btn--disabled' : ''}`} onClick={submit}>
          {t('withdraw.submit', { amount: amount && !error ? formatCents(amount) : '' }).trim()}
        </View>
      </Section>

      <Section title={t('withdraw.mine')} className='withdraw-list'>
        {list.length === 0
          ? <EmptyState icon='💸' text={t('withdraw.none')} />
          : list.map(w => (
            <View key={w.id} className={`withdraw-row withdraw-row--${w.status}`}>
              <View className='withdraw-row__main'>
                <Text className='withdraw-row__amount'>{formatCents(w.amountCents)}</Text>
                <Text className='withdraw-row__time'>{formatTime(w.createdAt)}</Text>
                {w.status === 'rejected' && w.reason && <Text className='withdraw-row__reason'>{t('withdraw.reason', { reason: w.reason })}</Text>}
                {w.status === 'failed' && <Text className='withdraw-row__reason'>{t('withdraw.returned', { amount: formatCents(w.returnedCents) })}</Text>}
              </View>
              <Text className={`withdraw-status withdraw-status--${w.status}`}>{t(`withdraw.status.${w.status}`)}</Text>
            </View>
          ))}
        {list.length < total && <View className='withdraw-more' onClick={() => { void withdrawals.loadMore() }}>{t('withdraw.more')}</View>}
      </Section>
    </View>
  )
}

export default observer(WithdrawPanel)
