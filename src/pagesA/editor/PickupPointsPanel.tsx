/**
 * The Settings tab's pickup points (自提): the counters on a map and in a list; add one (searching its
 * address fills the address and coordinates), change it, stop or resume pickups there. Every save is
 * audited on the server. When the shop has no web map, H5 says which key turns it on.
 */
import { useRef, useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { PickupNearbyResult, PickupPoint } from '~types/afterDraw'
import AddressLocator from '@/components/AddressLocator'
import { regionText } from '@/components/AddressLocator/region'
import MapView from '@/components/MapView'
import Section from '@/components/Section'
import { isH5 } from '@/config'
import { operatorApi, afterDrawApi } from '@/services/afterDraw'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { useRemote } from '@/utils/useRemote'
import type { MessageKey } from '@/locales/types'
import { EMPTY_PICKUP, PICKUP_FIELDS, PICKUP_MAX, checkPickup, draftOf, type PickupDraft, type PickupField } from './pickupForm'

function PickupPointsPanel () {
  const [draft, setDraft] = useState<PickupDraft | null>(null)
  const [problems, setProblems] = useState<Partial<Record<PickupField, string>>>({})

  const pointsAnswer = useRemote(() => operatorApi.pickupPoints(), [], { onError: e => toast({ message: errorMessage(e) }) })
  const points: PickupPoint[] | null = pointsAnswer.data ?? null
  const load = pointsAnswer.reload
  // which map this shop has (the shoppers' call answers it): asked with each list that has an open point, until known
  const first = points?.find(p => p.active)
  const mapsKnown = useRef(false)
  const mapsAnswer = useRemote<Pick<PickupNearbyResult, 'routeProvider' | 'webMap'>>(
    async () => {
      const r = await afterDrawApi.pickupNearby({ latitude: first!.latitude, longitude: first!.longitude })
      return { routeProvider: r.routeProvider, webMap: r.webMap }
    }, [points], { enabled: !!first && !mapsKnown.current, onSuccess: () => { mapsKnown.current = true } })
  const maps = mapsAnswer.data ?? null

  const save = async (d: PickupDraft) => {
    const { problems: found, request } = checkPickup(d)
    setProblems(found)
    if (!request) return
    try {
      await loading.wrap(operatorApi.savePickupPoint(request))
      toast({ message: t('opPickup.saved'), level: 'success' })
      setDraft(null)
      await load()
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: unknown } | null)?.field : undefined
      if (PICKUP_FIELDS.includes(field as PickupField)) setProblems({ [field as PickupField]: errorMessage(e) })
      else toast({ message: errorMessage(e) })
    }
  }

  const open = points?.filter(p => p.active) ?? []
  return (
    <Section title={t('opPickup.title')} className='op-pickup'>
      {maps && (!maps.routeProvider || (isH5() && !maps.webMap)) && <Text className='editor-hint editor-hint--error op-pickup__key'>{t('opSettings.mapKeyMissing')}</Text>}
      {open.length > 0 && (
        <MapView points={open.map(p => ({ id: p.id, latitude: p.latitude, longitude: p.longitude, title: p.name }))}
          selectedId={draft?.id ?? null} webMapScript={maps?.webMap?.script ?? null}
          onMarkerTap={id => { const p = open.find(x => x.id === id); if (p) { setProblems({}); setDraft(draftOf(p)) } }} />
      )}
      {points && points.length === 0 && !draft && <Text className='editor-hint op-pickup__empty'>{t('opPickup.empty')}</Text>}
      {points?.map(p => (
        <View key={p.id} className={`op-pickup-point op-pickup-point-${p.id} ${p.active ? '' : 'op-pickup-point--closed'}`}>
          <Text className='op-pickup-point__name'>{p.name}{p.active ? '' : ` · ${t('opPickup.closed')}`}</Text>
          <Text className='editor-hint'>{p.address} · {p.hours}</Text>
          <View className='op-pickup-point__actions'>
            <Text className='chip op-pickup-edit' onClick={() => { setProblems({}); setDraft(draftOf(p)) }}>{t('opPickup.edit')}</Text>
            <Text className='chip op-pickup-toggle' onClick={() => save({ ...draftOf(p), active: !p.active })}>{t(p.active ? 'opPickup.close' : 'opPickup.reopen')}</Text>
          </View>
        </View>
      ))}
      {draft
        ? (
          <View className='op-pickup-form'>
            <Text className='editor-hint'>{t('opPickup.locateHint')}</Text>
            <AddressLocator key={draft.id ?? 'new'} fields={false}
              onPick={p => setDraft(d => d && { ...d, address: `${regionText(p.region)} ${p.detail}`.trim(), latitude: p.latitude.toFixed(6), longitude: p.longitude.toFixed(6) })} />
            {PICKUP_FIELDS.map(f => (
              <View key={f} className={`op-setting op-pickup-${f}`}>
                <Text className='editor-label'>{t(`opPickup.${f}` as MessageKey)}</Text>
                <Input className={`editor-input ${problems[f] ? 'editor-input--error' : ''}`} type={f === 'latitude' || f === 'longitude' ? 'digit' : 'text'}
                  maxlength={PICKUP_MAX[f]} value={draft[f]}
                  onInput={e => { const v = e.detail.value; setDraft(d => d && { ...d, [f]: v }); setProblems(x => ({ ...x, [f]: undefined })) }} />
                {problems[f] && <Text className={`editor-hint editor-hint--error op-pickup-problem-${f}`}>{problems[f]}</Text>}
              </View>
            ))}
            <View className='op-pickup-form__buttons'>
              <View className='btn btn--ghost op-pickup-cancel' onClick={() => { setDraft(null); setProblems({}) }}>{t('opPickup.cancel')}</View>
              <View className='btn btn--primary op-pickup-save' onClick={() => save(draft)}>{t('opPickup.save')}</View>
            </View>
          </View>
          )
        : <View className='btn btn--ghost op-pickup-add' onClick={() => { setProblems({}); setDraft({ ...EMPTY_PICKUP }) }}>+ {t('opPickup.add')}</View>}
    </Section>
  )
}

export default observer(PickupPointsPanel)
