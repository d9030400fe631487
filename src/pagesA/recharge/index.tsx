// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import Taro, { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Input } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import { TOPUP_MAX_CENTS, TOPUP_MIN_CENTS } from '~types/limits'
import type { PayChannel, PayMethod, WalletBalance } from '~types/shop'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import ListEnd from '@/components/ListEnd'
import Section from '@/components/Section'
import PayMethods from '@/components/PayMethods'
import { orderApi, shopApi } from '@/services/shop'
import { topUp } from '@/services/payment'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { loading, toast } from '@/utils/feedback'
import { AMOUNT_INPUT_TYPE, formatCents, formatTime, parseYuan } from '@/utils/format'
import { redirect } from '@/utils/navigation'
import { useListPageEvents, usePagedList, useRemote } from '@/utils/useRemote'
import WithdrawPanel from './WithdrawPanel'
import './index.scss'

const PRESETS = [1000, 3000, 5000, 10000, 20000, 50000]
const LEDGER_PAGE = 20

/**
 * Top-up and withdraw: balances, presets or a custom amount through the order flow, the withdraw form
 * and the user's withdrawals (opened by the Withdraw button, or directly with ?withdraw=1), the ledger.
 */
function RechargePage () {
  const { params } = useRouter()
  const [withdrawOpen, setWithdrawOpen] = useState(params.withdraw === '1')
  const [refreshKey, setRefreshKey] = useState(0)
  const [pickedChannel, setChannel] = useState<PayChannel | null>(null)
  const [preset, setPreset] = useState<number | null>(10000)
  const [custom, setCustom] = useState('')
  const [busy, setBusy] = useState(false)

  // the ledger pages on reach-bottom; it loads with the rest when the page shows
  const ledgerList = usePagedList((page, size) => shopApi.walletLedger({ page, size }),
    { pageSize: LEDGER_PAGE, enabled: sessionStore.loggedIn, loadOnMount: false, onError: e => toast({ message: errorMessage(e) }) })
  const ledger = ledgerList.items ?? []
  useListPageEvents(ledgerList)

  // the balance and the ways to pay, read with the ledger; the withdraw panel reads its figures again after each
  const wallet = useRemote(async () => {
    const [balance, methods] = await Promise.all([shopApi.walletBalance(), orderApi.payMethods()])
    return { balance, methods }
  }, [], { loadOnMount: false, onError: e => toast({ message: errorMessage(e) }), onSuccess: () => setRefreshKey(k => k + 1) })
  const balance: WalletBalance | null = wallet.data?.balance ?? null
  const methods: PayMethod[] = wallet.data?.methods ?? []
  const channel = pickedChannel ?? methods[0]?.channel ?? null

  const load = async () => {
    if (!sessionStore.loggedIn) return
    // neither rejects: a failure is toasted by onError
    await Promise.all([ledgerList.refresh(), wallet.reload()])
  }
  useDidShow(() => { void load() })

  const amount = custom ? parseYuan(custom) : preset
  const amountError: MessageKey | null = custom && amount === null
    ? 'recharge.amountInvalid'
    : amount !== null && (amount < TOPUP_MIN_CENTS || amount > TOPUP_MAX_CENTS) ? 'recharge.amountRange' : null

  const pay = async () => {
    if (busy) return
    // a wrong amount is shown under the field already (a toast would cover it); no amount at all is not
    if (amountError) return
    if (amount === null) { toast({ message: t('recharge.amountInvalid') }); return }
    if (!channel) { toast({ message: t('payment.method') }); return }
    setBusy(true)
    try {
      const order = await loading.wrap(topUp(amount, channel))
      if (order !== 'redirected') {
        toast({ message: t('payment.paid', { amount: formatCents(order.amountCents) }), level: 'success' })
        setCustom('')
        await load()
      }
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
    }
  }

  const openWithdraw = () => {
    setWithdrawOpen(true)
    void Taro.pageScrollTo({ scrollTop: 0, duration: 200 }).catch(() => undefined)
  }

  if (!sessionStore.loggedIn) {
    return (
      <PageShell className='recharge-page'>
        <EmptyState icon='🔒' text={t('collection.loginFirst')}
          action={{ label: t('profile.loginNow'), onClick: () => { void redirect('/pages/login/index') } }} />
      </PageShell>
    )
  }

  return (
    <PageShell className='recharge-page'>
      <View className='wallet-card'>
        <Text className='wallet-card__title'>{t('recharge.balance')}</Text>
        <View className='wallet-card__row'>
          <View className='wallet-card__cell'>
            <Text className='wallet-card__label'>{t('recharge.cash')}</Text>
            <Text className='wallet-card__value wallet-cash'>{balance ? formatCents(balance.cashCents) : '—'}</Text>
          </View>
          <View className='wallet-card__cell'>
            <Text className='wallet-card__label'>{t('recharge.credit')}</Text>
            <Text className='wallet-card__value wallet-credit'>{balance ? formatCents(balance.creditCents) : '—'}</Text>
          </View>
        </View>
        <Text className='wallet-card__note'>{t('recharge.creditNote')}</Text>
      </View>

      {withdrawOpen && <WithdrawPanel refreshKey={refreshKey} onChanged={() => { void load() }} />}

      <Section title={t('recharge.topUp')}>
        <View className='presets'>
          {PRESETS.map(n => (
            <View key={n} className={`preset preset-${n / 100} ${preset === n && !custom ? 'preset--on' : ''}`}
              onClick={() => { setPreset(n); setCustom('') }}>
              {formatCents(n).replace('.00', '')}
            </View>
          ))}
        </View>
        <Input className={`custom-amount ${amountError ? 'custom-amount--error' : ''}`} type={AMOUNT_INPUT_TYPE} value={custom}
          placeholder={t('recharge.custom')} onInput={e => { setCustom(e.detail.value); setPreset(null) }} />
        {amountError && <Text className='recharge-error'>{t(amountError)}</Text>}
        <Text className='recharge-label'>{t('payment.method')}</Text>
        <PayMethods methods={methods} value={channel} onChange={setChannel} />
        <View className='recharge-actions'>
          <View className={`btn btn--ghost recharge-withdraw ${withdrawOpen ? 'recharge-withdraw--on' : ''}`} onClick={openWithdraw}>{t('recharge.withdraw')}</View>
          <View className={`btn btn--primary recharge-pay ${busy || amountError || amount === null ? 'btn--disabled' : ''}`} onClick={pay}>
            {t('recharge.topUp')} {amount && !amountError ? formatCents(amount) : ''}
          </View>
        </View>
      </Section>

      <Section title={t('recharge.ledger')} className='ledger'>
        {ledger.map(e => (
            <View key={`${e.id}`} className='ledger-row'>
              <View className='ledger-row__main'>
                <Text className='ledger-row__kind'>{t(`ledger.${e.kind}`)} · {t(`recharge.${e.account}`)}</Text>
                <Text className='ledger-row__time'>{formatTime(e.createdAt)}</Text>
              </View>
              <Text className={`ledger-row__amount ${e.amountCents >= 0 ? 'ledger-row__amount--in' : ''}`}>{formatCents(e.amountCents, { sign: true })}</Text>
            </View>
        ))}
        {/* empty says empty; "no more" only under rows (components/ListEnd) */}
        <ListEnd count={ledgerList.items?.length} hasMore={ledgerList.hasMore && ledger.length < ledgerList.total} loading={ledgerList.loading}
          empty={{ icon: '🧾', text: t('recharge.ledgerEmpty') }} className='ledger-end' />
      </Section>
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(RechargePage))
