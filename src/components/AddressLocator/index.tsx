/**
 * Fills an address form from where the user is or from a place they search (issue 8). "Use my
 * location": locate() (the device, else the IP location) -> geocoder -> region and detail. The search
 * box waits SEARCH_DEBOUNCE_MS after typing, then lists places: around the user's position when there
 * is one (mapsearch within KEYWORD_SEARCH_RADIUS_M), else the address geocoded (geoaddress) and the
 * places around it. Where the shop chose AMap (capabilities.mapProvider), AMap's regeocode and geocoder
 * serve the same two. Picking one fills the form and calls onPick. When the shop has no maps
 * (capabilitiesStore) the locate button and the search are not shown and the region and detail are
 * typed by hand; when locating fails it says so plainly.
 */
import { useEffect, useRef, useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { Place, Region } from '~types/geo'
import { KEYWORD_SEARCH_RADIUS_M, LOCATION_PAGE_SIZE, SEARCH_DEBOUNCE_MS } from '@/constants'
import type { MessageKey } from '@/locales/types'
import { errorMessage } from '@/services/request'
import { geoApi, isNotConfigured, nearbyBoundary } from '@/services/geo'
import { t } from '@/stores/locale'
import { capabilitiesStore } from '@/stores/capabilities'
import { LocationError, locate } from '@/utils/location'
import { openSettingsFor } from '@/utils/permission'
import { useRemote } from '@/utils/useRemote'
import { regionText, parseRegion, placeDetail } from './region'
import './index.scss'

/** What the form holds once a place is known. */
export interface AddressPick {
  region: Region
  detail: string
  latitude: number
  longitude: number
}

export interface AddressLocatorProps {
  /** A located or picked address (coordinates known). */
  onPick: (pick: AddressPick) => void
  /** Region or detail typed by hand (no coordinates). */
  onChange?: (value: { region: Region; detail: string }) => void
  /** Start from an address already saved. */
  initial?: { region: Region; detail: string }
  /** false: the form around it has its own region and detail fields (this only locates and searches). */
  fields?: boolean
}

const EMPTY_REGION: Region = { province: '', city: '', district: '' }

/** denied: WeChat's location scope is refused (issue 22): "you have denied authorization" and a way to the settings. */
type Notice = { key: MessageKey; tone: 'info' | 'warn'; denied?: boolean } | { text: string; tone: 'warn' } | null

function AddressLocator ({ onPick, onChange, initial, fields = true }: AddressLocatorProps) {
  const [region, setRegion] = useState<Region>(initial?.region ?? EMPTY_REGION)
  const [regionInput, setRegionInput] = useState(initial ? regionText(initial.region) : '')
  const [detail, setDetail] = useState(initial?.detail ?? '')
  const [busy, setBusy] = useState(false)
  const [notice, setNotice] = useState<Notice>(null)
  // no maps in this shop (known from its capabilities, or a call found them gone): type by hand. Until
  // the capabilities are known the map's buttons are not shown (a locate button that vanishes once
  // they come, on a slow network, is a button that lied)
  const [turnedOff, setMapsOff] = useState(() => capabilitiesStore.known && !capabilitiesStore.has('maps'))
  const caps = useRemote(() => capabilitiesStore.ensure(), [])
  const mapsOff = turnedOff || (caps.data ? caps.data.capabilities.maps !== true : !(capabilitiesStore.known && capabilitiesStore.has('maps')))
  const [keyword, setKeyword] = useState('')
  // the words searched for: the keyword once typing stopped
  const [query, setQuery] = useState('')
  const queryNow = useRef(query)
  queryNow.current = query
  const here = useRef<{ latitude: number; longitude: number } | null>(null)

  const fill = (pick: AddressPick) => {
    setRegion(pick.region)
    setRegionInput(regionText(pick.region))
    setDetail(pick.detail)
    onPick(pick)
  }

  const failed = (e: unknown) => {
    if (isNotConfigured(e)) {
      capabilitiesStore.turnOff('maps')
      setMapsOff(true)
      setNotice({ key: 'geo.notConfigured', tone: 'warn' })
    } else {
      setNotice({ text: errorMessage(e), tone: 'warn' })
    }
  }

  const locateMe = async () => {
    if (busy) return
    setBusy(true)
    setNotice({ key: 'geo.locating', tone: 'info' })
    try {
      let at
      try {
        at = await locate()
      } catch (e) {
        setNotice({ key: 'geo.locateFailed', tone: 'warn', denied: e instanceof LocationError && e.refused === 'scope' })
        return
      }
      here.current = { latitude: at.latitude, longitude: at.longitude }
      try {
        // the shop's provider: AMap's regeocode where it chose AMap, else Tencent's geocoder
        const found = capabilitiesStore.settings?.capabilities.mapProvider === 'amap'
          ? await geoApi.amapRegeocode({ latitude: at.latitude, longitude: at.longitude })
          : await geoApi.geocoder(`${at.latitude},${at.longitude}`)
        fill({ region: found.region, detail: found.detail, latitude: at.latitude, longitude: at.longitude })
        setNotice({ key: at.source === 'ip' ? 'geo.approximate' : 'geo.located', tone: at.source === 'ip' ? 'warn' : 'info', denied: at.refused === 'scope' })
      } catch (e) {
        failed(e)
      }
    } finally {
      setBusy(false)
    }
  }

  // the location scope refused: the user turns it on in WeChat's settings (a tap opens them), then locate again
  const toSettings = async () => {
    if (await openSettingsFor('scope.userLocation')) await locateMe()
  }

  const search = async (text: string): Promise<Place[]> => {
    let list: Place[]
    if (capabilitiesStore.settings?.capabilities.mapProvider === 'amap') {
      // AMap: its geocoder's matches for the words, in the city of where the user is when known
      const found = await geoApi.amapGeo({ address: text })
      list = found.list.map((g, i) => ({
        id: `amap:${i}:${g.longitude},${g.latitude}`, title: g.formattedAddress, address: g.formattedAddress, category: g.level,
        latitude: g.latitude, longitude: g.longitude, distance: null, region: g.region, adcode: g.adcode
      }))
    } else if (here.current) {
      const { latitude, longitude } = here.current
      list = (await geoApi.mapsearch({ boundary: nearbyBoundary(latitude, longitude, KEYWORD_SEARCH_RADIUS_M), keyword: text, pageSize: LOCATION_PAGE_SIZE })).list
    } else {
      const found = await geoApi.geoaddress(text)
      const first: Place = {
        id: `geocode:${found.latitude},${found.longitude}`, title: found.title, address: `${regionText(found.region).replace(/ /g, '')}${found.detail}`,
        category: '', latitude: found.latitude, longitude: found.longitude, distance: null, region: found.region, adcode: found.adcode
      }
      const around = await geoApi.mapsearch({ boundary: nearbyBoundary(found.latitude, found.longitude, KEYWORD_SEARCH_RADIUS_M), keyword: text, pageSize: LOCATION_PAGE_SIZE })
        .then(r => r.list, () => [] as Place[])
      list = [first, ...around.filter(p => p.title !== first.title)]
    }
    return list
  }
  const searched = useRemote(() => search(query), [query], { enabled: !!query && !mapsOff, onError: failed })
  const searching = !!query && !mapsOff && searched.loading
  // none after a failure (its notice says why) until the next answer
  const places = query && !mapsOff && !searched.failed ? searched.data ?? null : null
  const clearSearch = () => { setQuery(''); searched.setData(() => undefined) }

  // the search waits until typing stops for SEARCH_DEBOUNCE_MS
  useEffect(() => {
    const text = keyword.trim()
    if (!text || mapsOff) { clearSearch(); return }
    // the same words again (after a failure, say) ask again
    const timer = setTimeout(() => { if (queryNow.current === text) void searched.reload(); else setQuery(text) }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [keyword, mapsOff]) // eslint-disable-line react-hooks/exhaustive-deps

  const pick = (p: Place) => {
    here.current = { latitude: p.latitude, longitude: p.longitude }
    fill({ region: p.region, detail: placeDetail(p), latitude: p.latitude, longitude: p.longitude })
    setKeyword('')
    clearSearch()
    setNotice(null)
  }

  const typedRegion = (text: string) => {
    setRegionInput(text)
    const r = parseRegion(text)
    setRegion(r)
    onChange?.({ region: r, detail })
  }
  const typedDetail = (text: string) => {
    setDetail(text)
    onChange?.({ region, detail: text })
  }

  return (
    <View className='address-locator'>
      {!mapsOff && <View className='address-locator__bar'>
        <View className={`address-locator__locate ${busy ? 'address-locator__locate--busy' : ''}`} onClick={locateMe}>
          <Text className='address-locator__pin'>📍</Text>
          <Text>{busy ? t('geo.locating') : t('geo.useMyLocation')}</Text>
        </View>
      </View>}
      {notice && !('key' in notice && notice.denied) && (
        <Text className={`address-locator__notice address-locator__notice--${notice.tone}`}>
          {'key' in notice ? t(notice.key) : notice.text}
        </Text>
      )}
      {notice && 'key' in notice && notice.denied && (
        <View className='address-locator__notice address-locator__notice--warn address-locator__denied'>
          <Text className='address-locator__denied-text'>{t('login.authDenied')}</Text>
          <Text className='address-locator__denied-text'>{t(notice.key)}</Text>
          <Text className='address-locator__settings' onClick={() => { void toSettings() }}>{t('privacy.openSettings')}</Text>
        </View>
      )}

      {!mapsOff && (
        <View className='address-locator__search'>
          <Input className='address-locator__search-input' value={keyword} placeholder={t('geo.searchPlaceholder')}
            confirmType='search' maxlength={96} onInput={e => setKeyword(e.detail.value)} />
          {searching && <Text className='address-locator__hint'>{t('geo.searching')}</Text>}
          {!searching && places && places.length === 0 && <Text className='address-locator__hint'>{t('geo.noPlaces')}</Text>}
          {places && places.length > 0 && (
            <View className='address-locator__places'>
              {places.map(p => (
                <View key={p.id} className='address-locator__place' onClick={() => pick(p)}>
                  <View className='address-locator__place-body'>
                    <Text className='address-locator__place-title'>{p.title}</Text>
                    <Text className='address-locator__place-address'>{p.address}</Text>
                  </View>
                  {p.distance !== null && <Text className='address-locator__place-distance'>{p.distance >= 1000 ? `${(p.distance / 1000).toFixed(1)} km` : `${Math.round(p.distance)} m`}</Text>}
                </View>
              ))}
            </View>
          )}
        </View>
      )}

      {fields && <View className='address-locator__field'>
        <Text className='address-locator__label'>{t('geo.region')}</Text>
        <Input className='address-locator__input' value={regionInput} placeholder={t('geo.regionPlaceholder')} maxlength={60}
          onInput={e => typedRegion(e.detail.value)} />
      </View>}
      {fields && <View className='address-locator__field'>
        <Text className='address-locator__label'>{t('geo.detail')}</Text>
        <Input className='address-locator__input' value={detail} placeholder={t('geo.detailPlaceholder')} maxlength={120}
          onInput={e => typedDetail(e.detail.value)} />
      </View>}
    </View>
  )
}

export default observer(AddressLocator)
