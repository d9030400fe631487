import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { t } from '@/stores/locale'
import './index.scss'

const PRESETS = [10, 30, 50, 100, 200, 500]

/** Top-up and withdraw: balances, presets, a custom amount, the ledger. */
function RechargePage () {
  const [amount, setAmount] = useState<number | null>(100)
  const [custom, setCustom] = useState('')
  return (
    <PageShell className='recharge-page'>
      <View className='wallet-card'>
        <Text className='wallet-card__title'>{t('recharge.balance')}</Text>
        <View className='wallet-card__row'>
          <View className='wallet-card__cell'>
            <Text className='wallet-card__label'>{t('recharge.cash')}</Text>
            <Text className='wallet-card__value'>¥ —</Text>
          </View>
          <View className='wallet-card__cell'>
            <Text className='wallet-card__label'>{t('recharge.credit')}</Text>
            <Text className='wallet-card__value'>¥ —</Text>
          </View>
        </View>
      </View>
      <Section title={t('recharge.topUp')}>
        <View className='presets'>
          {PRESETS.map(n => (
            <View key={n} className={`preset ${amount === n && !custom ? 'preset--on' : ''}`}
              onClick={() => { setAmount(n); setCustom('') }}>
              {t('recharge.yuan', { n })}
            </View>
          ))}
        </View>
        <Input className='custom-amount' type='digit' value={custom} placeholder={t('recharge.custom')}
          onInput={e => { setCustom(e.detail.value); setAmount(null) }} />
        <View className='recharge-actions'>
          <View className='btn btn--ghost btn--disabled'>{t('recharge.withdraw')}</View>
          <View className='btn btn--primary btn--disabled'>{t('recharge.topUp')}</View>
        </View>
      </Section>
      <Section title={t('recharge.ledger')}><EmptyState icon='🧾' text={t('feedback.noMore')} /></Section>
    </PageShell>
  )
}

export default observer(RechargePage)
