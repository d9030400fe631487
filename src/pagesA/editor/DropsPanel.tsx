import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import type { DropInfo, SeriesDrops } from '~types/drop'
import { observer } from '@/stores/mobx'
import Section from '@/components/Section'
import { dropsApi } from '@/services/drops'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { a11yControl, WHOLE_INPUT_TYPE } from '@/utils/format'
import { DROP_LIMITS } from '~types/limits'
import { chinaClock } from '@/utils/travel'
import { useRemote } from '@/utils/useRemote'
import { dropProblems, parseChinaTime, RAFFLE_FORM_LIMITS, type DropField as Field } from './dropForm'

function DropRow ({ d }: { d: DropInfo }) {
  return (
    <View className={`drop-row drop-row--${d.status}`}>
      <Text className='drop-row__head'>#{d.dropId} · {t(`drop.status.${d.status}`)} · {t('drop.startsAt', { time: chinaClock(d.startsAt) })}</Text>
      <Text className='drop-row__counts'>{t('drop.cases', { cases: d.cases, boxes: d.boxes, hidden: d.hiddenCases })}</Text>
      <Text className='drop-row__left'>{t('drop.left', { cases: d.casesLeft, boxes: d.boxesLeft })}</Text>
      {d.raffle && <Text className='drop-row__raffle'>{t('dropForm.listRaffle', { time: chinaClock(d.raffle.closesAt), n: d.raffle.places, m: d.raffle.claimMinutes })}</Text>}
      <Text className='drop-row__root'>{t('drop.root')}: {d.root}</Text>
    </View>
  )
}

/**
 * A series' drops (POST /api/operator/drops, dropCreate): each with its counts, what is left and its
 * root; and a new drop, whose every case is made and committed when it is created, within the free
 * stock. From a series' first drop on, it sells only from drops: a restock is a new drop.
 */
/** `onLoaded`: told the series' drops each time they are read (the editor hides what a drop series has no use for and rereads the stock). */
export default observer(function DropsPanel ({ seriesId, onLoaded }: { seriesId: number; onLoaded?: (drops: DropInfo[]) => void }) {
  const soon = new Date(Math.ceil((Date.now() + 3_600_000) / 3_600_000) * 3_600_000).toISOString()
  const [form, setForm] = useState<Record<Field, string>>({
    cases: '', hiddenCases: '0', startsAt: chinaClock(soon),
    windowSeconds: String(DROP_LIMITS.defaults.windowSeconds), shoppersAtOnce: String(DROP_LIMITS.defaults.shoppersAtOnce), minutesEach: String(DROP_LIMITS.defaults.minutesEach),
    boxesPerAccount: '', casesPerAccount: '', accountHoursMin: '',
    closesAt: chinaClock(new Date(Date.parse(soon) + 86_400_000).toISOString()), claimMinutes: '60'
  })
  // how it sells: first come (with or without a waiting room), or by raffle
  const [raffle, setRaffle] = useState(false)
  const [needPhone, setNeedPhone] = useState(false)
  // a waiting room is the fair default for a drop; off: first come, first served
  const [withRoom, setWithRoom] = useState(true)
  const [shown, setShown] = useState(false)
  const [busy, setBusy] = useState(false)
  const [serverField, setServerField] = useState<{ field: Field; message: string } | null>(null)
  const drops = useRemote<SeriesDrops>(() => dropsApi.list(seriesId), [seriesId], { onSuccess: d => onLoaded?.(d.drops) })
  const s = drops.data
  if (!s) return <Section title={t('dropEditor.title')} className='drops-panel'><Text className='editor-hint'>{drops.failed ? t('dropEditor.loadFailed') : t('feedback.loading')}</Text></Section>
  const { windowSeconds, shoppersAtOnce, minutesEach, closesAt, claimMinutes, ...basic } = form
  const problems = dropProblems(raffle ? { ...basic, closesAt, claimMinutes } : withRoom ? { ...basic, windowSeconds, shoppersAtOnce, minutesEach } : basic, s, Date.now())
  const selling = s.drops.find(d => d.status === 'scheduled' || d.status === 'on_sale')
  const problemOf = (f: Field) => (shown ? problems[f] : undefined) ?? (serverField?.field === f ? serverField.message : undefined)
  const set = (f: Field, v: string) => { setForm(x => ({ ...x, [f]: v })); setServerField(null) }
  const create = async () => {
    setShown(true)
    if (busy || selling || Object.keys(problems).length) return
    setBusy(true)
    try {
      await loading.wrap(dropsApi.create({
        seriesId,
        cases: Number(form.cases.trim()),
        hiddenCases: Number(form.hiddenCases.trim()),
        startsAt: new Date(parseChinaTime(form.startsAt)!).toISOString(),
        limits: {
          ...(form.boxesPerAccount.trim() ? { boxesPerAccount: Number(form.boxesPerAccount.trim()) } : {}),
          ...(form.casesPerAccount.trim() ? { casesPerAccount: Number(form.casesPerAccount.trim()) } : {}),
          ...(form.accountHoursMin.trim() ? { accountHoursMin: Number(form.accountHoursMin.trim()) } : {}),
          ...(needPhone ? { verifiedPhone: true } : {})
        },
        ...(raffle ? { raffle: { closesAt: new Date(parseChinaTime(closesAt)!).toISOString(), claimMinutes: Number(claimMinutes.trim()) } } : {}),
        ...(!raffle && withRoom ? { waitingRoom: { windowSeconds: Number(windowSeconds.trim()), shoppersAtOnce: Number(shoppersAtOnce.trim()), minutesEach: Number(minutesEach.trim()) } } : {})
      }))
      toast({ message: t('dropEditor.made'), level: 'success' })
      setShown(false)
      setForm(x => ({ ...x, cases: '' }))
      await drops.reload()
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: string } | null)?.field : undefined
      if (field === 'cases' || field === 'hiddenCases' || field === 'startsAt') setServerField({ field, message: errorMessage(e) })
      else if (field?.startsWith('waitingRoom.') || field?.startsWith('limits.') || field?.startsWith('raffle.')) setServerField({ field: field.slice(field.indexOf('.') + 1) as Field, message: errorMessage(e) })
      toast({ message: errorMessage(e) })
      await drops.reload()
    } finally {
      setBusy(false)
    }
  }
  const input = (f: Field, label: string, type: 'text' | 'number' = WHOLE_INPUT_TYPE) => (
    <View className={`drop-form__field drop-form__${f}`}>
      <Text className='editor-label'>{label}</Text>
      <Input className={`editor-input ${problemOf(f) ? 'editor-input--error' : ''}`} type={type} value={form[f]} aria-label={label}
        onInput={e => set(f, e.detail.value)} />
      {problemOf(f) && <Text className='editor-hint editor-hint--error drop-form__problem'>{problemOf(f)}</Text>}
    </View>
  )
  return (
    <Section title={t('dropEditor.title')} className='drops-panel'>
      <Text className='editor-hint'>{t('dropEditor.hint')}</Text>
      <Text className='drop-form__room'>{t('dropEditor.room', { n: s.casesFillable, hidden: s.hiddenFree })}</Text>
      {selling
        ? <Text className='editor-hint drop-form__selling'>{t('dropEditor.selling', { id: selling.dropId })}</Text>
        : (
          <View className='drop-form'>
            {input('cases', t('dropEditor.cases'))}
            {s.hasHidden && input('hiddenCases', t('dropEditor.hiddenCases'))}
            {input('startsAt', t('dropEditor.startsAt'), 'text')}
            <Text className='editor-label'>{t('dropForm.mode')}</Text>
            <View className='drop-form__modes' {...a11yControl(undefined, 'radiogroup')}>
              {([false, true] as const).map(r => (
                <View key={String(r)} className={`drop-form__mode drop-form__mode--${r ? 'raffle' : 'first'} ${raffle === r ? 'drop-form__mode--on' : ''}`}
                  onClick={() => { setRaffle(r); setServerField(null) }} {...a11yControl(undefined, 'radio')} aria-checked={raffle === r}>
                  <Text>{t(r ? 'dropForm.modeRaffle' : 'dropForm.modeFirst')}</Text>
                </View>
              ))}
            </View>
            {raffle && <Text className='editor-hint drop-form__raffle-hint'>{t('dropForm.raffleHint')}</Text>}
            {raffle && input('closesAt', t('dropForm.closesAt'), 'text')}
            {raffle && input('claimMinutes', t('dropForm.claimMinutes', { min: RAFFLE_FORM_LIMITS.claimMinutesMin, max: RAFFLE_FORM_LIMITS.claimMinutesMax }))}
            {!raffle && (
              <View className={`drop-form__room-toggle ${withRoom ? 'drop-form__room-toggle--on' : ''}`} onClick={() => setWithRoom(!withRoom)}
                {...a11yControl(undefined, 'checkbox')} aria-checked={withRoom}>
                <Text className='drop-form__room-box'>{withRoom ? '✓' : ''}</Text>
                <Text className='drop-form__room-label'>{t('dropEditor.withRoom')}</Text>
              </View>
            )}
            {!raffle && withRoom && <Text className='editor-hint'>{t('dropEditor.roomHint')}</Text>}
            {!raffle && withRoom && input('windowSeconds', t('dropEditor.windowSeconds'))}
            {!raffle && withRoom && input('shoppersAtOnce', t('dropEditor.shoppersAtOnce'))}
            {!raffle && withRoom && input('minutesEach', t('dropEditor.minutesEach'))}
            <Text className='editor-label drop-form__limits-title'>{t('dropEditor.limitsTitle')}</Text>
            {input('boxesPerAccount', t('dropEditor.boxesPerAccount'))}
            {input('casesPerAccount', t('dropEditor.casesPerAccount'))}
            {input('accountHoursMin', t('dropEditor.accountHoursMin'))}
            <View className={`drop-form__room-toggle drop-form__phone ${needPhone ? 'drop-form__room-toggle--on' : ''}`} onClick={() => setNeedPhone(!needPhone)}
              {...a11yControl(undefined, 'checkbox')} aria-checked={needPhone}>
              <Text className='drop-form__room-box'>{needPhone ? '✓' : ''}</Text>
              <Text className='drop-form__room-label'>{t('dropEditor.needPhone')}</Text>
            </View>
            <View className={`btn btn--primary drop-form__go ${busy ? 'btn--disabled' : ''}`} onClick={() => { void create() }}>{t('dropEditor.create')}</View>
          </View>
          )}
      {s.drops.map(d => <DropRow key={d.dropId} d={d} />)}
    </Section>
  )
})
