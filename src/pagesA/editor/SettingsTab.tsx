import { useEffect, useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { AFTER_DRAW_LIMITS, type ShopSettings } from '~types/limits'
import Section from '@/components/Section'
import ServicesPanel from './ServicesPanel'
import { operatorApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { loading, toast } from '@/utils/feedback'
import { parseYuan } from '@/utils/format'

type Key = keyof ShopSettings
/** Each setting: money in yuan (stored as cents) or a count; the largest value the server takes. */
const FIELDS: Array<{ key: Key; label: MessageKey; money: boolean; min: number; max: number }> = [
  { key: 'shipFreeFromItems', label: 'opSettings.shipFreeFromItems', money: false, min: 1, max: AFTER_DRAW_LIMITS.itemsPerRequestMax },
  { key: 'shipFeeCents', label: 'opSettings.shipFeeCents', money: true, min: 0, max: 100000 },
  { key: 'withdrawMinCents', label: 'opSettings.withdrawMinCents', money: true, min: 1, max: 10_000_000 },
  { key: 'withdrawDailyMaxCents', label: 'opSettings.withdrawDailyMaxCents', money: true, min: 1, max: 100_000_000 },
  { key: 'hintCardPriceCents', label: 'opSettings.hintCardPriceCents', money: true, min: 0, max: 20000 },
  { key: 'xrayCardPriceCents', label: 'opSettings.xrayCardPriceCents', money: true, min: 0, max: 20000 }
]

const show = (f: typeof FIELDS[number], v: number) => (f.money ? (v / 100).toFixed(2) : String(v))
const parse = (f: typeof FIELDS[number], text: string): number | null => {
  if (f.money) return parseYuan(text)
  return /^\d{1,6}$/.test(text.trim()) ? Number(text.trim()) : null
}

/** The operator's shop settings: the shipping rule, withdrawal limits, prop prices (audited on the server), and the services. */
function SettingsTab () {
  const [saved, setSaved] = useState<ShopSettings | null>(null)
  const [draft, setDraft] = useState<Record<Key, string> | null>(null)

  const fill = (s: ShopSettings) => {
    setSaved(s)
    setDraft(Object.fromEntries(FIELDS.map(f => [f.key, show(f, s[f.key])])) as Record<Key, string>)
  }
  useEffect(() => { operatorApi.settings().then(fill, e => toast({ message: errorMessage(e) })) }, [])

  if (!saved || !draft) return <Text className='editor-hint'>{t('feedback.loading')}</Text>

  const problems = new Map<Key, string>()
  const changes: Partial<ShopSettings> = {}
  for (const f of FIELDS) {
    const v = parse(f, draft[f.key])
    if (v === null || v < f.min || v > f.max) {
      problems.set(f.key, t('opSettings.range', { min: show(f, f.min), max: show(f, f.max) }))
    } else if (v !== saved[f.key]) {
      changes[f.key] = v
    }
  }
  const changed = Object.keys(changes).length > 0

  const save = async () => {
    if (problems.size || !changed) return
    try {
      fill(await loading.wrap(operatorApi.saveSettings(changes)))
      toast({ message: t('opSettings.saved'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  return (
    <>
      <Section title={t('opSettings.title')} className='op-settings'>
        {FIELDS.map(f => (
          <View key={f.key} className={`op-setting op-setting-${f.key}`}>
            <Text className='editor-label'>{t(f.label)}</Text>
            <Input className={`editor-input ${problems.has(f.key) ? 'editor-input--error' : ''}`} type={f.money ? 'digit' : 'number'}
              value={draft[f.key]} onInput={e => setDraft({ ...draft, [f.key]: e.detail.value })} />
            {problems.has(f.key) && <Text className='editor-hint editor-hint--error'>{problems.get(f.key)}</Text>}
          </View>
        ))}
        <View className={`btn btn--primary op-settings__save ${problems.size || !changed ? 'btn--disabled' : ''}`} onClick={save}>{t('opSettings.save')}</View>
      </Section>
      {/* which third-party services this server has, and what turns each on */}
      <ServicesPanel />
    </>
  )
}

export default observer(SettingsTab)
