import { useEffect, useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import { AFTER_DRAW_LIMITS, settingsConflicts, type ShopSettings } from '~types/limits'
import Section from '@/components/Section'
import ServicesPanel from './ServicesPanel'
import { operatorApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { ApiError } from '@/services/errors'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { loading, toast } from '@/utils/feedback'
import { AMOUNT_INPUT_TYPE, WHOLE_INPUT_TYPE, formatCents, parseWhole, parseYuan } from '@/utils/format'

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
/** A bound as the hint shows it: money as the app writes money. */
const bound = (f: typeof FIELDS[number], v: number) => (f.money ? formatCents(v) : String(v))
/** Typed text to the stored value; a sign, an exponent or stray characters are refused (null), never dropped. */
const parse = (f: typeof FIELDS[number], text: string): number | null => (f.money ? parseYuan(text) : parseWhole(text, 6))

/**
 * Every problem of the form, each beside its field: each value alone (its range), then the values
 * together (settingsConflicts, the rule the server applies; a value out of range counts as saved).
 */
export function settingsProblems (saved: ShopSettings, draft: Record<Key, string>): { problems: Map<Key, string>; changes: Partial<ShopSettings> } {
  const problems = new Map<Key, string>()
  const changes: Partial<ShopSettings> = {}
  const next: ShopSettings = { ...saved }
  for (const f of FIELDS) {
    const v = parse(f, draft[f.key])
    if (v === null || v < f.min || v > f.max) {
      problems.set(f.key, t('opSettings.range', { min: bound(f, f.min), max: bound(f, f.max) }))
    } else {
      next[f.key] = v
      if (v !== saved[f.key]) changes[f.key] = v
    }
  }
  for (const c of settingsConflicts(next, Object.keys(changes) as Key[])) {
    if (!problems.has(c.field)) {
      problems.set(c.field, t(c.field === 'withdrawMinCents' ? 'opSettings.withdrawMinAboveDailyMax' : 'opSettings.withdrawDailyMaxBelowMin', { other: formatCents(c.otherCents) }))
    }
  }
  return { problems, changes }
}

/** The operator's shop settings: the shipping rule, withdrawal limits, prop prices (audited on the server), and the services. */
function SettingsTab () {
  const [saved, setSaved] = useState<ShopSettings | null>(null)
  const [draft, setDraft] = useState<Record<Key, string> | null>(null)
  // the server's refusal naming a field (another operator changed the other one meanwhile): beside it until edited
  const [refused, setRefused] = useState<{ key: Key; text: string; message: string } | null>(null)

  const fill = (s: ShopSettings) => {
    setSaved(s)
    setDraft(Object.fromEntries(FIELDS.map(f => [f.key, show(f, s[f.key])])) as Record<Key, string>)
  }
  useEffect(() => { operatorApi.settings().then(fill, e => toast({ message: errorMessage(e) })) }, [])

  if (!saved || !draft) return <Text className='editor-hint'>{t('feedback.loading')}</Text>

  const { problems, changes } = settingsProblems(saved, draft)
  if (refused && !problems.has(refused.key) && draft[refused.key] === refused.text) problems.set(refused.key, refused.message)
  const changed = Object.keys(changes).length > 0

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
