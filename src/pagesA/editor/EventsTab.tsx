/**
 * The editor's launch events (首发活动, issue 24): the events announced, each with its reminders
 * counted; announce one (a series on sale, both titles, the city, the venue found by its address, which
 * fills the coordinates, the start and end in China time), change it, or call it off (its waiting
 * reminders are cancelled). Every save is audited on the server; a refusal is shown by its field.
 */
import { useState } from 'react'
import { Input, Picker, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { EditorSeriesListResponse } from '~types/editor'
import type { EventSaveRequest, OperatorEvent } from '~types/events'
import { CITIES, type CityName } from '~types/cities'
import { EVENT_LIMITS } from '~types/limits'
import AddressLocator from '@/components/AddressLocator'
import { regionText } from '@/components/AddressLocator/region'
import Section from '@/components/Section'
import { editorApi } from '@/services/editor'
import { eventsApi } from '@/services/events'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { localeStore, t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { tr } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'
import type { MessageKey } from '@/locales/types'
import { chinaClock } from '@/utils/travel'

interface Draft {
  id?: number
  seriesId: number | null
  titleZh: string
  titleEn: string
  city: string
  venue: string
  address: string
  latitude: string
  longitude: string
  startDay: string
  startTime: string
  endDay: string
  endTime: string
}
type Field = 'seriesId' | 'title.zh' | 'title.en' | 'city' | 'venue' | 'address' | 'latitude' | 'longitude' | 'startsAt' | 'endsAt'

const EMPTY: Draft = { seriesId: null, titleZh: '', titleEn: '', city: '上海', venue: '', address: '', latitude: '', longitude: '', startDay: '', startTime: '14:00', endDay: '', endTime: '20:00' }

/** A day and a time in China as the instant the server stores. */
const instant = (day: string, time: string) => new Date(`${day}T${time}:00+08:00`).toISOString()

function draftOf (e: OperatorEvent): Draft {
  const [startDay, startTime] = chinaClock(e.startsAt).split(' ')
  const [endDay, endTime] = chinaClock(e.endsAt).split(' ')
  return {
    id: e.id, seriesId: e.seriesId, titleZh: e.title.zh, titleEn: e.title.en, city: e.city.zh, venue: e.venue, address: e.address,
    latitude: String(e.latitude), longitude: String(e.longitude), startDay, startTime, endDay, endTime
  }
}

/** The draft's problems by field (what the server would refuse), or the request. */
function check (d: Draft): { problems: Partial<Record<Field, string>>; request?: EventSaveRequest } {
  const p: Partial<Record<Field, string>> = {}
  const need = (f: Field, label: MessageKey) => { p[f] = t('opEvents.required', { field: t(label) }) }
  if (!d.seriesId) need('seriesId', 'opEvents.series')
  if (!d.titleZh.trim()) need('title.zh', 'opEvents.titleZh')
  if (!d.titleEn.trim()) need('title.en', 'opEvents.titleEn')
  if (!d.venue.trim()) need('venue', 'opEvents.venue')
  if (!d.address.trim()) need('address', 'opEvents.address')
  const lat = Number(d.latitude)
  const lng = Number(d.longitude)
  if (!d.latitude.trim() || !Number.isFinite(lat) || Math.abs(lat) > 90) p.latitude = t('opPickup.badLatitude')
  if (!d.longitude.trim() || !Number.isFinite(lng) || Math.abs(lng) > 180) p.longitude = t('opPickup.badLongitude')
  if (!d.startDay) need('startsAt', 'opEvents.start')
  if (!d.endDay) need('endsAt', 'opEvents.end')
  if (Object.keys(p).length) return { problems: p }
  return {
    problems: p,
    request: {
      ...(d.id ? { id: d.id } : {}),
      seriesId: d.seriesId!, title: { zh: d.titleZh.trim(), en: d.titleEn.trim() }, city: d.city as CityName, venue: d.venue.trim(), address: d.address.trim(),
      latitude: lat, longitude: lng, startsAt: instant(d.startDay, d.startTime), endsAt: instant(d.endDay, d.endTime)
    }
  }
}

function EventsTab () {
  const eventList = useRemote(async () => (await eventsApi.operatorList()).list, [], { onError: e => toast({ message: errorMessage(e) }) })
  const events: OperatorEvent[] | null = eventList.data ?? null
  // the series an event can be of (those on sale); none when they cannot be read
  const series: EditorSeriesListResponse['list'] = useRemote(async () => (await editorApi.list({ page: 1, size: 50, status: 'on_sale' })).list, []).data ?? []
  const [draft, setDraft] = useState<Draft | null>(null)
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({})
  const lang = localeStore.locale === 'en' ? 'en' : 'zh'

  const load = eventList.reload

  const send = async (request: EventSaveRequest, done: string) => {
    try {
      await loading.wrap(eventsApi.save(request))
      toast({ message: done, level: 'success' })
      setDraft(null)
      await load()
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: unknown } | null)?.field : undefined
      if (typeof field === 'string' && draft) setProblems({ [field as Field]: errorMessage(e) })
      else toast({ message: errorMessage(e) })
    }
  }
  const save = () => {
    if (!draft) return
    const { problems: found, request } = check(draft)
    setProblems(found)
    if (request) void send(request, t('opEvents.saved'))
  }
  const callOff = async (e: OperatorEvent) => {
    const ok = await dialog({ title: t('opEvents.cancelTitle'), message: t('opEvents.cancelBody', { n: e.reminders.waiting }), confirmText: t('opEvents.cancelEvent') })
    if (!ok) return
    const { request } = check(draftOf(e))
    if (request) void send({ ...request, status: 'cancelled' }, t('opEvents.cancelled'))
  }

  const set = (patch: Partial<Draft>) => setDraft(d => d && { ...d, ...patch })
  const input = (f: Field, key: keyof Draft, label: MessageKey, max: number, type: 'text' | 'digit' = 'text') => (
    <View className={`op-setting op-event-${String(key)}`}>
      <Text className='editor-label'>{t(label)}</Text>
      <Input className={`editor-input ${problems[f] ? 'editor-input--error' : ''}`} type={type} maxlength={max} value={String(draft?.[key] ?? '')}
        onInput={e => { set({ [key]: e.detail.value } as Partial<Draft>); setProblems(x => ({ ...x, [f]: undefined })) }} />
      {problems[f] && <Text className={`editor-hint editor-hint--error op-event-problem-${f.replace('.', '-')}`}>{problems[f]}</Text>}
    </View>
  )
  const when = (f: 'startsAt' | 'endsAt', dayKey: 'startDay' | 'endDay', timeKey: 'startTime' | 'endTime', label: MessageKey) => (
    <View className={`op-setting op-event-${f}`}>
      <Text className='editor-label'>{t(label)}</Text>
      <View className='op-event-when'>
        <Picker mode='date' value={draft?.[dayKey] || ''} onChange={e => { set({ [dayKey]: e.detail.value } as Partial<Draft>); setProblems(x => ({ ...x, [f]: undefined })) }}>
          <View className={`editor-input op-event-${dayKey}`}>{draft?.[dayKey] || t('opEvents.pickDay')}</View>
        </Picker>
        <Picker mode='time' value={draft?.[timeKey] || '14:00'} onChange={e => set({ [timeKey]: e.detail.value } as Partial<Draft>)}>
          <View className={`editor-input op-event-${timeKey}`}>{draft?.[timeKey]}</View>
        </Picker>
      </View>
      {problems[f] && <Text className={`editor-hint editor-hint--error op-event-problem-${f}`}>{problems[f]}</Text>}
    </View>
  )

  return (
    <Section title={t('opEvents.title')} className='op-events'>
      {events && events.length === 0 && !draft && <Text className='editor-hint op-events__empty'>{t('opEvents.empty')}</Text>}
      {events?.map(e => (
        <View key={e.id} className={`op-pickup-point op-event op-event-${e.id}`}>
          <Text className='op-pickup-point__name'>{tr(e.title)}{e.status === 'cancelled' ? ` · ${t('opEvents.isCancelled')}` : ''}</Text>
          <Text className='editor-hint'>{tr(e.seriesTitle)} · {chinaClock(e.startsAt)} · {e.city[lang]} {e.venue}</Text>
          <Text className='editor-hint op-event__reminders'>{t('opEvents.reminders', { waiting: e.reminders.waiting, sent: e.reminders.sent, failed: e.reminders.failed })}</Text>
          {e.status === 'announced' && (
            <View className='op-pickup-point__actions'>
              <Text className='chip op-event-edit' onClick={() => { setProblems({}); setDraft(draftOf(e)) }}>{t('opPickup.edit')}</Text>
              <Text className='chip op-event-cancel' onClick={() => { void callOff(e) }}>{t('opEvents.cancelEvent')}</Text>
            </View>
          )}
        </View>
      ))}
      {draft
        ? (
          <View className='op-pickup-form op-event-form'>
            <View className='op-setting op-event-series'>
              <Text className='editor-label'>{t('opEvents.series')}</Text>
              <View className='op-event-series__chips'>
                {series.map(s => (
                  <Text key={s.id} className={`chip op-event-series-${s.id} ${draft.seriesId === s.id ? 'chip--on' : ''}`} onClick={() => { set({ seriesId: s.id }); setProblems(x => ({ ...x, seriesId: undefined })) }}>{tr(s.title)}</Text>
                ))}
              </View>
              {problems.seriesId && <Text className='editor-hint editor-hint--error op-event-problem-seriesId'>{problems.seriesId}</Text>}
            </View>
            {input('title.zh', 'titleZh', 'opEvents.titleZh', EVENT_LIMITS.titleMax)}
            {input('title.en', 'titleEn', 'opEvents.titleEn', EVENT_LIMITS.titleMax)}
            <View className='op-setting op-event-city'>
              <Text className='editor-label'>{t('opEvents.city')}</Text>
              <Picker mode='selector' range={CITIES.map(c => c[lang])} value={Math.max(0, CITIES.findIndex(c => c.zh === draft.city))} onChange={e => set({ city: CITIES[Number(e.detail.value)]?.zh ?? draft.city })}>
                <View className='editor-input op-event-city-pick'>{CITIES.find(c => c.zh === draft.city)?.[lang] ?? draft.city} ▾</View>
              </Picker>
            </View>
            {input('venue', 'venue', 'opEvents.venue', EVENT_LIMITS.venueMax)}
            <Text className='editor-hint'>{t('opPickup.locateHint')}</Text>
            <AddressLocator key={draft.id ?? 'new'} fields={false}
              onPick={p => set({ address: `${regionText(p.region)} ${p.detail}`.trim(), latitude: p.latitude.toFixed(6), longitude: p.longitude.toFixed(6) })} />
            {input('address', 'address', 'opEvents.address', EVENT_LIMITS.addressMax)}
            {input('latitude', 'latitude', 'opPickup.latitude', 12, 'digit')}
            {input('longitude', 'longitude', 'opPickup.longitude', 13, 'digit')}
            {when('startsAt', 'startDay', 'startTime', 'opEvents.start')}
            {when('endsAt', 'endDay', 'endTime', 'opEvents.end')}
            <View className='op-pickup-form__buttons'>
              <View className='btn btn--ghost op-event-form-cancel' onClick={() => { setDraft(null); setProblems({}) }}>{t('opPickup.cancel')}</View>
              <View className='btn btn--primary op-event-save' onClick={save}>{t('opPickup.save')}</View>
            </View>
          </View>
          )
        : <View className='btn btn--ghost op-event-add' onClick={() => { setProblems({}); setDraft({ ...EMPTY }) }}>+ {t('opEvents.add')}</View>}
    </Section>
  )
}

export default observer(EventsTab)
