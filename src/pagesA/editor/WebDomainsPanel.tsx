import { useState } from 'react'
import { View, Text, Textarea } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import Section from '@/components/Section'
import { webDomainsApi } from '@/services/webDomains'
import { errorMessage } from '@/services/request'
import { capabilitiesStore } from '@/stores/capabilities'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { useRemote } from '@/utils/useRemote'
import { linesOf, webDomainsProblem } from './webDomainRules'
import './webDomains.scss'

/**
 * The Settings tab's business domains (issue 48 item 4): the https sites the shop's web view may show,
 * as WeChat's business domains are configured for the mini-program; one host per line. Checked as
 * typed (the rule the server applies), saved (audited), and the app's own copy refreshed.
 */
function WebDomainsPanel () {
  const [draft, setDraft] = useState<string | null>(null)
  const [refused, setRefused] = useState<{ text: string; message: string } | null>(null)
  const list = useRemote(() => webDomainsApi.list(), [], { onError: e => toast({ message: errorMessage(e) }) })
  const saved = list.data?.domains ?? null
  if (!saved) return null
  const text = draft ?? saved.join('\n')
  const problem = webDomainsProblem(text) ?? (refused && refused.text === text ? refused.message : null)
  const changed = linesOf(text).join('\n') !== saved.join('\n')

  const save = async () => {
    if (problem || !changed) return
    try {
      const answer = await loading.wrap(webDomainsApi.save({ domains: linesOf(text) }))
      list.setData(() => answer)
      setDraft(null)
      setRefused(null)
      toast({ message: t('opWebDomains.saved'), level: 'success' })
      void capabilitiesStore.refresh().catch(() => undefined)
    } catch (e) {
      setRefused({ text, message: errorMessage(e) })
    }
  }

  return (
    <Section title={t('opWebDomains.title')} className='op-web-domains'>
      <Text className='editor-hint op-web-domains__intro'>{t('opWebDomains.intro')}</Text>
      <Textarea className={`op-web-domains__input ${problem ? 'op-web-domains__input--error' : ''}`} value={text} maxlength={4000}
        placeholder={t('opWebDomains.placeholder')} aria-label={t('opWebDomains.title')} onInput={e => setDraft(e.detail.value)} />
      {problem
        ? <Text className='editor-hint editor-hint--error op-web-domains__problem'>{problem}</Text>
        : saved.length === 0 && !changed && <Text className='editor-hint op-web-domains__none'>{t('opWebDomains.none')}</Text>}
      <View className={`btn btn--primary op-web-domains__save ${problem || !changed ? 'btn--disabled' : ''}`} onClick={() => { void save() }}>{t('opWebDomains.save')}</View>
    </Section>
  )
}

export default observer(WebDomainsPanel)
