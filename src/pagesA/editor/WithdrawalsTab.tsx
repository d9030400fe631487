import { useState } from 'react'
import { View, Text, Textarea } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { WITHDRAW_LIMITS } from '~types/limits'
import type { OperatorWithdrawalView, WithdrawalStatus } from '~types/withdraw'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { withdrawApi } from '@/services/withdraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatCents, formatTime } from '@/utils/format'
import { usePagedList } from '@/utils/useRemote'
import './WithdrawalsTab.scss'

const PAGE = 20
type Filter = 'requested' | 'all'

/** The operators' withdrawal queue: requested ones first; approve (refund) or reject with a reason. */
function WithdrawalsTab () {
  const [filter, setFilter] = useState<Filter>('requested')
  const [rejecting, setRejecting] = useState<number | null>(null)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)

  const queue = usePagedList((page, size) => {
    const status: WithdrawalStatus | undefined = filter === 'requested' ? 'requested' : undefined
    return withdrawApi.queue({ page, size, ...(status ? { status } : {}) })
  }, { pageSize: PAGE, deps: [filter], onError: e => toast({ message: errorMessage(e) }) })
  const list = queue.items ?? []
  const total = queue.total

  const run = async (task: () => Promise<OperatorWithdrawalView>, done: string) => {
    if (busy) return
    setBusy(true)
    try {
      const w = await loading.wrap(task())
      toast({ message: `${done} · ${t(`withdraw.status.${w.status}`)}`, level: 'success' })
      setRejecting(null)
      setReason('')
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
      await queue.refresh()
    }
  }

  const approve = async (w: OperatorWithdrawalView) => {
    const ok = await dialog({ message: t('withdraw.confirmApprove', { amount: formatCents(w.amountCents), user: w.userLabel }) })
    if (ok) await run(() => withdrawApi.approve(w.id), t('withdraw.approved'))
  }
  const reject = async (w: OperatorWithdrawalView) => {
    const text = reason.trim()
    if (!text) { toast({ message: t('withdraw.reasonRequired') }); return }
    await run(() => withdrawApi.reject(w.id, text), t('withdraw.rejected'))
  }

  return (
    <Section title={t('withdraw.queue')} className='withdrawals-tab'
      extra={(
        <View className='wq-filter'>
          {(['requested', 'all'] as const).map(f => (
            <Text key={f} className={`wq-filter__item ${filter === f ? 'wq-filter__item--on' : ''}`} onClick={() => setFilter(f)}>
              {f === 'all' ? t('withdraw.filterAll') : t('withdraw.status.requested')}
            </Text>
          ))}
        </View>
      )}>
      {list.length === 0
        ? <EmptyState icon='🧾' text={t('withdraw.queueEmpty')} />
        : list.map(w => (
          <View key={w.id} className={`wq-row wq-row--${w.status}`}>
            <View className='wq-row__head'>
              <Text className='wq-row__amount'>{formatCents(w.amountCents)}</Text>
              <Text className={`withdraw-status withdraw-status--${w.status}`}>{t(`withdraw.status.${w.status}`)}</Text>
            </View>
            <Text className='wq-row__user'>{w.userLabel}</Text>
            <Text className='wq-row__meta'>#{w.id} · {formatTime(w.createdAt)}</Text>
            <Text className='wq-row__meta'>
              {t('withdraw.refunds', { list: w.refunds.map(r => `${r.opId.slice(-6)} ${formatCents(r.amountCents)} (${t(r.channel === 'sandbox' ? 'withdraw.channelSandbox' : 'withdraw.channelWechat')})`).join(', ') })}
            </Text>
            {w.reason && <Text className='wq-row__reason'>{t('withdraw.reason', { reason: w.reason })}</Text>}
            {w.status === 'requested' && rejecting !== w.id && (
              <View className='wq-row__actions'>
                <View className='btn btn--ghost wq-reject' onClick={() => { setRejecting(w.id); setReason('') }}>{t('withdraw.reject')}</View>
                <View className={`btn btn--primary wq-approve ${busy ? 'btn--disabled' : ''}`} onClick={() => { void approve(w) }}>{t('withdraw.approve')}</View>
              </View>
            )}
            {w.status === 'approved' && (
              <View className='wq-row__actions'>
                <View className={`btn btn--ghost wq-approve ${busy ? 'btn--disabled' : ''}`} onClick={() => { void run(() => withdrawApi.approve(w.id), t('withdraw.approved')) }}>{t('withdraw.approve')}</View>
              </View>
            )}
            {rejecting === w.id && (
              <View className='wq-reject-form'>
                <Textarea className='wq-reason' value={reason} maxlength={WITHDRAW_LIMITS.reasonMax} placeholder={t('withdraw.rejectReason')}
                  onInput={e => setReason(e.detail.value)} />
                <View className='wq-row__actions'>
                  <View className='btn btn--ghost wq-cancel' onClick={() => setRejecting(null)}>{t('withdraw.cancel')}</View>
                  <View className={`btn btn--primary wq-confirm-reject ${busy || !reason.trim() ? 'btn--disabled' : ''}`} onClick={() => { void reject(w) }}>{t('withdraw.confirmReject')}</View>
                </View>
              </View>
            )}
          </View>
        ))}
      {list.length < total && <View className='wq-more' onClick={() => { void queue.loadMore() }}>{t('withdraw.more')}</View>}
    </Section>
  )
}

export default observer(WithdrawalsTab)
