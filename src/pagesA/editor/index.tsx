import { useState } from 'react'
import { View, Text, Input, Textarea } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import PageShell from '@/components/PageShell'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import ActionBar from '@/components/ActionBar'
import { t } from '@/stores/locale'
import './index.scss'

/** A single box costs at most 200 yuan (PRODUCT.md, shopper protection). */
export const MAX_BOX_PRICE_YUAN = 200

/** The operator's series editor: name, description, price, case size, designs. */
function EditorPage () {
  const [price, setPrice] = useState('')
  const over = Number(price) > MAX_BOX_PRICE_YUAN
  return (
    <PageShell className='editor-page'>
      <Section>
        <Text className='editor-label'>{t('editor.title')}</Text>
        <Input className='editor-input' maxlength={60} />
        <Text className='editor-label'>{t('editor.description')}</Text>
        <Textarea className='editor-textarea' maxlength={500} />
        <View className='editor-pair'>
          <View className='editor-pair__cell'>
            <Text className='editor-label'>{t('editor.price')}</Text>
            <Input className={`editor-input ${over ? 'editor-input--error' : ''}`} type='digit' value={price}
              onInput={e => setPrice(e.detail.value)} />
          </View>
          <View className='editor-pair__cell'>
            <Text className='editor-label'>{t('editor.caseSize')}</Text>
            <Input className='editor-input' type='number' />
          </View>
        </View>
        <Text className={`editor-hint ${over ? 'editor-hint--error' : ''}`}>{t('editor.priceLimit')}</Text>
      </Section>
      <Section title={t('editor.designs')}><EmptyState icon='🎨' text={t('feedback.noMore')} /></Section>
      <ActionBar>
        <View className='btn btn--primary btn--disabled'>{t('editor.save')}</View>
      </ActionBar>
    </PageShell>
  )
}

export default observer(EditorPage)
