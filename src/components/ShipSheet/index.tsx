import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { Address, ShippingRule } from '~types/afterDraw'
import type { PickupPoint } from '~types/afterDraw'
import type { InsufficientBalanceData } from '~types/shop'
import AddressLocator from '@/components/AddressLocator'
import PickupPicker from '@/components/PickupPicker'
import RegionPicker from '@/components/RegionPicker'
import { regionPartsText } from '@/components/RegionPicker/parts'
import { parseRegion } from '@/components/AddressLocator/region'
import { addressApi, afterDrawApi } from '@/services/afterDraw'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatCents, a11yControl, maskPhone } from '@/utils/format'
import { navigate } from '@/utils/navigation'
import { randomString } from '@/utils/random'
import { useRemote } from '@/utils/useRemote'
import { normalizePhone, PHONE_INPUT_MAX, PHONE_INPUT_TYPE } from '@/utils/validation'
import { canImportWechatAddress, importWechatAddress } from '@/utils/wechatAddress'
import { Draft, FIELDS, Field, AddressProblems, addressProblems } from './address'
import './index.scss'

const EMPTY: Draft = { name: '', phone: '', region: '', area: null, detail: '', isDefault: false }

/** A located or searched place's region, when it names all three parts. */
const fullArea = (r: { province: string; city: string; district: string }) => (r.province && r.city && r.district ? { ...r } : null)

interface Props {
  prizeIds: number[]
  onClose: () => void
  onShipped: () => void
}

/**
 * Shipping chosen prizes: pick or add an address, see the fee, confirm. Or "pick up instead" (自提):
 * choose a counter near you on the map (PickupPicker); the address gives the contact the counter asks
 * for, and there is no fee.
 */
function ShipSheet ({ prizeIds, onClose, onShipped }: Props) {
  const [chosen, setChosen] = useState<number | null>(null)
  const [draft, setDraft] = useState<Draft | null>(null)
  // beside each field; `form` for a refusal that names none
  const [problems, setProblems] = useState<AddressProblems & { form?: string }>({})
  // one key per sheet: a retried tap can never ship twice
  const [key] = useState(() => randomString(24))
  const [mode, setMode] = useState<'parcel' | 'pickup'>('parcel')
  const [point, setPoint] = useState<PickupPoint | null>(null)

  // the addresses (the default one chosen unless one is; with none, the form for a first) and the fee rule
  const answer = useRemote(async () => {
    const [list, rule] = await Promise.all([addressApi.list(), afterDrawApi.shippingRule()])
    return { list, rule }
  }, [], {
    onError: e => toast({ message: errorMessage(e) }),
    onSuccess: ({ list }) => {
      setChosen(c => (c && list.some(a => a.id === c) ? c : list.find(a => a.isDefault)?.id ?? null))
      if (!list.length) setDraft({ ...EMPTY })
    }
  })
  const addresses: Address[] | null = answer.data?.list ?? null
  const rule: ShippingRule | null = answer.data?.rule ?? null
  const load = answer.reload

  const fee = mode === 'pickup' ? 0 : rule ? (prizeIds.length >= rule.freeFromItems ? 0 : rule.feeCents) : null

  const save = async () => {
    if (!draft) return
    const bad = addressProblems(draft)
    setProblems(bad)
    if (Object.keys(bad).length) return
    try {
      const saved = await loading.wrap(addressApi.save({
        ...(draft.id ? { id: draft.id } : {}),
        name: draft.name.trim(),
        phone: normalizePhone(draft.phone)!,
        region: draft.area ? regionPartsText(draft.area) : draft.region.trim(),
        ...(draft.area ? { area: draft.area } : {}),
        detail: draft.detail.trim(),
        isDefault: draft.isDefault
      }))
      setDraft(null)
      setChosen(saved.id)
      await load()
    } catch (e) {
      const field = e instanceof ApiError ? (e.data as { field?: unknown } | null)?.field : undefined
      const named = field === 'area' ? 'region' : field
      setProblems(FIELDS.includes(named as Field) ? { [named as Field]: errorMessage(e) } : { form: errorMessage(e) })
    }
  }

  // WeChat's address book (mini-program): fills the form, to be checked and saved as typed ones are
  const importAddress = async () => {
    try {
      const got = await importWechatAddress()
      if (!got) return
      setDraft(d => d && { ...d, name: got.name, phone: got.phone, area: got.area, region: got.area ? regionPartsText(got.area) : d.region, detail: got.detail })
      setProblems({})
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  const remove = async (a: Address) => {
    if (!await dialog({ message: t('ship.removeConfirm') })) return
    try {
      await addressApi.remove(a.id)
      await load()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  const makeDefault = async (a: Address) => {
    try {
      await addressApi.setDefault(a.id)
      await load()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  const ship = async () => {
    if (!chosen) { toast({ message: t('ship.noAddress') }); return }
    if (mode === 'pickup' && !point) { toast({ message: t('pickup.choose') }); return }
    try {
      await loading.wrap(afterDrawApi.shipmentCreate({
        prizeIds, addressId: chosen, idempotencyKey: key, ...(mode === 'pickup' && point ? { pickupPointId: point.id } : {})
      }))
      toast({ message: t(mode === 'pickup' ? 'pickup.created' : 'ship.created'), level: 'success' })
      onShipped()
    } catch (e) {
      const data = e instanceof ApiError ? e.data as Partial<InsufficientBalanceData> | null : null
      if (data?.reason === 'insufficient_balance' && typeof data.shortfallCents === 'number') {
        if (await dialog({ message: t('ship.shortfall', { shortfall: formatCents(data.shortfallCents) }), confirmText: t('ship.topUp') })) {
          void navigate('/pagesA/recharge/index')
        }
      } else {
        toast({ message: errorMessage(e) })
      }
    }
  }

  const field = (name: Field, type: 'text' | 'number' = 'text', maxlength = 100) => draft && (
    <View className={`ship-form__row ship-row-${name}`}>
      <Text className='ship-form__label'>{t(`ship.${name}`)}</Text>
      <Input className={`ship-form__input ship-${name} ${problems[name] ? 'ship-form__input--error' : ''}`} type={type} maxlength={maxlength} value={draft[name]}
        onInput={e => { const v = e.detail.value; setDraft(d => d && { ...d, [name]: v }); setProblems(p => ({ ...p, [name]: undefined })) }} />
      {problems[name] && <Text className={`ship-form__problem ship-problem-${name}`}>{problems[name]}</Text>}
    </View>
  )

  return (
    <View className='ship-sheet'>
      <View className='ship-sheet__mask' onClick={onClose} />
      <View className='ship-sheet__panel'>
        <View className='ship-sheet__head'>
          <Text className='ship-sheet__title'>{t('ship.title')}</Text>
          <Text className='ship-sheet__close' onClick={onClose} {...a11yControl(t('ship.close'))}>✕</Text>
        </View>
        <View className='ship-modes'>
          {(['parcel', 'pickup'] as const).map(m => (
            <Text key={m} className={`chip ship-mode-${m} ${mode === m ? 'chip--on' : ''}`} onClick={() => setMode(m)}>{t(m === 'parcel' ? 'pickup.byParcel' : 'pickup.instead')}</Text>
          ))}
        </View>
        {mode === 'pickup' && <PickupPicker selectedId={point?.id ?? null} onSelect={setPoint} />}
        {mode === 'pickup' && <Text className='ship-sheet__label'>{t('pickup.contact')}</Text>}
        {addresses?.map(a => (
          <View key={a.id} className={`address-card address-${a.id} ${chosen === a.id ? 'address-card--on' : ''}`} onClick={() => setChosen(a.id)}>
            <View className='address-card__main'>
              <Text className='address-card__who'>{a.name} {maskPhone(a.phone)}{a.isDefault ? ` · ${t('ship.isDefault')}` : ''}</Text>
              <Text className='address-card__where'>{a.region} {a.detail}</Text>
            </View>
            <View className='address-card__actions'>
              <Text className='address-card__act' onClick={e => { e.stopPropagation(); setProblems({}); setDraft({ id: a.id, name: a.name, phone: a.phone, region: a.region, area: a.area, detail: a.detail, isDefault: a.isDefault }) }}>{t('ship.edit')}</Text>
              {!a.isDefault && <Text className='address-card__act' onClick={e => { e.stopPropagation(); void makeDefault(a) }}>{t('ship.makeDefault')}</Text>}
              <Text className='address-card__act address-card__act--warn' onClick={e => { e.stopPropagation(); void remove(a) }}>{t('ship.remove')}</Text>
            </View>
          </View>
        ))}
        {draft
          ? (
            <View className='ship-form'>
              {canImportWechatAddress() && <View className='btn btn--ghost ship-import' onClick={() => { void importAddress() }}>{t('ship.importWechat')}</View>}
              {field('name', 'text', 50)}
              {field('phone', PHONE_INPUT_TYPE, PHONE_INPUT_MAX)}
              <AddressLocator key={draft.id ?? 'new'} fields={false} initial={{ region: draft.area ?? parseRegion(draft.region), detail: draft.detail }}
                onPick={p => setDraft(d => {
                  if (!d) return d
                  // a place that names all three parts fills the picker; one that names fewer shows as found, to be picked
                  const area = fullArea(p.region)
                  return { ...d, area, region: area ? regionPartsText(area) : [p.region.province, p.region.city, p.region.district].filter(Boolean).join(' '), detail: p.detail }
                })} />
              <View className='ship-form__row ship-row-region'>
                <Text className='ship-form__label'>{t('ship.region')}</Text>
                <RegionPicker value={draft.area} fallback={draft.region} invalid={!!problems.region}
                  onChange={area => { setDraft(d => d && { ...d, area, region: regionPartsText(area) }); setProblems(p => ({ ...p, region: undefined })) }} />
                {problems.region && <Text className='ship-form__problem ship-problem-region'>{problems.region}</Text>}
              </View>
              {field('detail', 'text', 200)}
              {problems.form && <Text className='ship-form__problem ship-problem-form'>{problems.form}</Text>}
              <View className='ship-form__buttons'>
                {addresses && addresses.length > 0 && <View className='btn btn--ghost ship-form__cancel' onClick={() => { setDraft(null); setProblems({}) }}>{t('ship.cancel')}</View>}
                <View className='btn btn--primary ship-form__save' onClick={save}>{t('ship.save')}</View>
              </View>
            </View>
            )
          : <View className='btn btn--ghost ship-add' onClick={() => { setProblems({}); setDraft({ ...EMPTY }) }}>+ {t('ship.add')}</View>}
        {mode === 'pickup' && (
          <View className='ship-fee'>
            <View className='ship-fee__row'>
              <Text>{t('ship.fee')} · {t('ship.items', { n: prizeIds.length })}</Text>
              <Text className='ship-fee__value'>{t('pickup.free')}</Text>
            </View>
          </View>
        )}
        {rule && mode === 'parcel' && (
          <View className='ship-fee'>
            <View className='ship-fee__row'>
              <Text>{t('ship.fee')} · {t('ship.items', { n: prizeIds.length })}</Text>
              <Text className='ship-fee__value'>{fee === 0 ? t('ship.free') : formatCents(fee ?? 0)}</Text>
            </View>
            <Text className='ship-fee__rule'>{t('ship.rule', { n: rule.freeFromItems, fee: formatCents(rule.feeCents) })}</Text>
          </View>
        )}
        <View className={`btn btn--primary ship-confirm ${chosen && !draft && (mode === 'parcel' || point) ? '' : 'btn--disabled'}`} onClick={ship}>
          {mode === 'pickup' ? t('pickup.confirm', { n: prizeIds.length }) : t('ship.confirm', { n: prizeIds.length })}
        </View>
      </View>
    </View>
  )
}

export default observer(ShipSheet)
