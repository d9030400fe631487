// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import type { PropShown, PropsState } from '~types/props'
import type { AgeStatus } from '~types/shop'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import AgeGate from '@/components/AgeGate'
import { AGE_GATE_REASONS } from '@/components/AgeGate/state'
import { propsApi } from '@/services/props'
import { shopApi } from '@/services/shop'
import { isApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatCents, formatTime, tr, decorativeImage } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { navigate, redirect } from '@/utils/navigation'
import { useRequestKeys } from '@/utils/requestKey'
import { clockText, useTimeLeft } from '@/utils/useTimeLeft'
import { useRemote } from '@/utils/useRemote'
import './index.scss'

const PROPS: { key: 'shake' | 'hint' | 'xray'; icon: string; name: MessageKey; desc: MessageKey }[] = [
  { key: 'shake', icon: '📳', name: 'props.shake', desc: 'props.shakeDesc' },
  { key: 'hint', icon: '💡', name: 'props.hint', desc: 'props.hintDesc' },
  { key: 'xray', icon: '🔍', name: 'props.xray', desc: 'props.xrayDesc' }
]

/** Props: what each does, how many are held, buying cards with credit or cash, and every use. */
/** An X-ray card's hold: until when, and how long is left by the server's clock (the device's may be off). */
const HoldLeft = observer(function HoldLeft ({ until }: { until: string }) {
  const left = useTimeLeft(until)
  return (
    <Text className={`prop-use__hold ${left === 0 ? 'prop-use__hold--over' : ''}`}>
      {t('props.holdUntil', { time: formatTime(until) })} · {left > 0 ? t('props.holdLeft', { left: clockText(left) }) : t('props.holdOver')}
    </Text>
  )
})

function PropsPage () {
  // read each time the page shows, once logged in
  const answer = useRemote(async () => {
    const [state, history] = await Promise.all([propsApi.state(), propsApi.history({ page: 1, size: 50 })])
    return { state, history: history.list }
  }, [], { loadOnMount: false, onError: e => toast({ message: errorMessage(e) }) })
  useDidShow(() => { if (sessionStore.loggedIn) void answer.reload() })
  const state: PropsState | null = answer.data?.state ?? null
  const history: PropShown[] = answer.data?.history ?? []
  const setState = (next: PropsState) => answer.setData(d => d && { ...d, state: next })

  // a tap again after a lost answer is the same purchase (one charge), not a second one
  const keys = useRequestKeys()
  // buying cards passes the age check of a box purchase: refused by it, the page shows the check here
  const [age, setAge] = useState<AgeStatus | null>(null)
  const buy = async (kind: 'hint' | 'xray', pay: 'credit' | 'cash') => {
    if (!state) return
    const card = t(kind === 'hint' ? 'props.hint' : 'props.xray')
    const ok = await dialog({ message: t('props.buyAsk', { card, price: formatCents(state.prices[kind]), account: t(pay === 'credit' ? 'props.credit' : 'props.cash') }) })
    if (!ok) return
    try {
      const r = await loading.wrap(propsApi.buy({ kind, quantity: 1, pay, idempotencyKey: keys.keyFor(`${kind}:${pay}`) }))
      keys.done()
      setState(r.state)
      toast({ message: t('props.bought', { n: 1, card }), level: 'success' })
    } catch (e) {
      toast({ message: errorMessage(e) })
      const reason = isApiError(e) ? (e.data as { reason?: string } | null)?.reason : undefined
      if (AGE_GATE_REASONS.some(r => r === reason)) setAge(await shopApi.ageStatus().catch(() => null))
    }
  }

  return (
    <PageShell className='props-page'>
      {age && <AgeGate age={age} onChange={setAge} />}
      {PROPS.map(p => (
        <View key={p.key} className={`prop-card prop-${p.key}`}>
          <Text className='prop-card__icon'>{p.icon}</Text>
          <View className='prop-card__body'>
            <Text className='prop-card__name'>{t(p.name)}</Text>
            <Text className='prop-card__desc'>{t(p.desc)}</Text>
            {state && p.key !== 'shake' && <Text className='prop-card__price'>{t('props.price', { price: formatCents(state.prices[p.key]) })}</Text>}
            {state && p.key !== 'shake' && (
              <View className='prop-card__buy'>
                <Text className={`prop-buy prop-buy-${p.key}-credit`} onClick={() => buy(p.key as 'hint' | 'xray', 'credit')}>{t('props.buyCredit')}</Text>
                <Text className={`prop-buy prop-buy-${p.key}-cash`} onClick={() => buy(p.key as 'hint' | 'xray', 'cash')}>{t('props.buyCash')}</Text>
              </View>
            )}
          </View>
          <Text className={`prop-card__count prop-count-${p.key}`}>
            {state ? (p.key === 'shake' ? t('props.shakesLeft', { n: state.shakesLeft }) : t('props.owned', { n: state.cards[p.key] })) : '—'}
          </Text>
        </View>
      ))}
      {!sessionStore.loggedIn && (
        <EmptyState icon='🔒' text={t('props.loginFirst')} action={{ label: t('profile.loginNow'), onClick: () => { void redirect('/pages/login/index') } }} />
      )}
      <Text className='props-note'>{t('props.earn')}</Text>
      <Text className='props-note'>{t('props.howTo')}</Text>
      <View className='btn btn--primary props-go' onClick={() => navigate('/pagesA/home/index')}>{t('props.toShop')}</View>
      {sessionStore.loggedIn && <Section title={t('props.history')} className='props-history'>
        {history.length === 0
          ? <Text className='props-note'>{t('props.noHistory')}</Text>
          : history.map((h, i) => (
            <View key={i} className={`prop-use prop-use--${h.kind}`}>
              <Image className='prop-use__img' src={mediaUrl(h.design.image, 64)} mode='aspectFit' lazyLoad {...decorativeImage()} />
              <View className='prop-use__body'>
                <Text className='prop-use__what'>{t(h.isNot ? 'props.isNot' : 'props.is', { slot: h.slot, design: tr(h.design.name) })}</Text>
                <Text className='prop-use__when'>{t(`props.${h.kind}`)} · {t('props.caseNo', { id: h.caseId })} · {formatTime(h.at)}</Text>
                {h.reservedUntil && <HoldLeft until={h.reservedUntil} />}
              </View>
            </View>
          ))}
      </Section>}
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(PropsPage))
