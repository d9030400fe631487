import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import ActionBar from '@/components/ActionBar'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import './index.scss'

const ROWS: MessageKey[] = ['purchase.price', 'purchase.credit', 'purchase.cash']

/** Buy: what is bought, the price, credit and cash used, the disclosure, pay. */
function PurchasePage () {
  const [acknowledged, setAcknowledged] = useState(false)
  return (
    <PageShell className='purchase-page'>
      <Section title={t('purchase.items')}><EmptyState icon='🛒' text={t('purchase.nothing')} /></Section>
      <Section>
        {ROWS.map(key => (
          <View key={key} className='purchase-row'>
            <Text className='purchase-row__label'>{t(key)}</Text>
            <Text className='purchase-row__value'>—</Text>
          </View>
        ))}
      </Section>
      <View className='purchase-ack' onClick={() => setAcknowledged(!acknowledged)}>
        <View className={`purchase-ack__box ${acknowledged ? 'purchase-ack__box--on' : ''}`}>{acknowledged ? '✓' : ''}</View>
        <Text>{t('purchase.disclosure')}</Text>
      </View>
      <ActionBar>
        <View className='btn btn--primary btn--disabled'>{t('purchase.pay')}</View>
      </ActionBar>
    </PageShell>
  )
}

export default observer(PurchasePage)
