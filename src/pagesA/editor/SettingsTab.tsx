import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { type ShopSettings } from '~types/limits'
import Section from '@/components/Section'
import ServicesPanel from './ServicesPanel'
import WebDomainsPanel from './WebDomainsPanel'
import { operatorApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { ApiError } from '@/services/errors'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { AMOUNT_INPUT_TYPE, WHOLE_INPUT_TYPE } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'
import { Key, FIELDS, settingsProblems } from './settingsRules'
import { aiApi } from '@/services/ai'
import { aiUsageNotes } from './aiUsageNotes'

const show = (f: typeof FIELDS[number], v: number) => (f.money ? (v / 100).toFixed(2) : String(v))

/** The operator's shop settings: the shipping rule, withdrawal limits, prop prices (audited on the server), and the services. */
function SettingsTab () {
  const [draft, setDraft] = useState<Record<Key, string> | null>(null)
  // the server's refusal naming a field (another operator changed the other one meanwhile): beside it until edited
  const [refused, setRefused] = useState<{ key: Key; text: string; message: string } | null>(null)

  const fillDraft = (s: ShopSettings) => setDraft(Object.fromEntries(FIELDS.map(f => [f.key, show(f, s[f.key])])) as Record<Key, string>)
  const settings = useRemote(() => operatorApi.settings(), [], { onSuccess: fillDraft, onError: e => toast({ message: errorMessage(e) }) })
  const saved = settings.data ?? null
  // today's AI calls against the budgets, beside those two settings (read again after a save)
  const aiUsage = useRemote(() => aiApi.usage(), [])
  const fill = (s: ShopSettings) => { settings.setData(() => s); fillDraft(s); void aiUsage.reload() }

  if (!saved || !draft) return <Text className='editor-hint'>{t('feedback.loading')}</Text>

  const { problems, changes } = settingsProblems(saved, draft)
  if (refused && !problems.has(refused.key) && draft[refused.key] === refused.text) problems.set(refused.key, refused.message)
  const changed = Object.keys(changes).length > 0
  const notes = aiUsageNotes(aiUsage.data)

  const save = async () => {
    if (problems.size || !changed) return
    try {
      fill(await loading.wrap(operatorApi.saveSettings(changes)))
      setRefused(null)
      toast({ message: t('opSettings.saved'), level: 'success' })
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: unknown } | null)?.field : undefined
      const f = FIELDS.find(x => x.key === field)
      if (f) setRefused({ key: f.key, text: draft[f.key], message: errorMessage(e) })
      else toast({ message: errorMessage(e) })
    }
  }

  return (
    <>
      <Section title={t('opSettings.title')} className='op-settings'>
        {FIELDS.map(f => (
          <View key={f.key} className={`op-setting op-setting-${f.key}`}>
            <Text className='editor-label'>{t(f.label)}</Text>
            <Input className={`editor-input ${problems.has(f.key) ? 'editor-input--error' : ''}`} type={f.money ? AMOUNT_INPUT_TYPE : WHOLE_INPUT_TYPE}
              value={draft[f.key]} onInput={e => setDraft({ ...draft, [f.key]: e.detail.value })} />
            {problems.has(f.key) && <Text className='editor-hint editor-hint--error'>{problems.get(f.key)}</Text>}
            {notes[f.key] && <Text className={`editor-hint op-setting-note op-setting-note-${f.key}`}>{notes[f.key]}</Text>}
          </View>
        ))}
        <View className={`btn btn--primary op-settings__save ${problems.size || !changed ? 'btn--disabled' : ''}`} onClick={save}>{t('opSettings.save')}</View>
      </Section>
      {/* the sites the shop's web view may show (issue 48 item 4) */}
      <WebDomainsPanel />
      {/* which third-party services this server has, and what turns each on */}
      <ServicesPanel />
    </>
  )
}

export default observer(SettingsTab)
