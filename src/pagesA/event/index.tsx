// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
/**
 * A launch event (首发活动, issue 24): the series and when, the venue on the map with the route from the
 * shopper (the shop's route provider; the position asked again every 30 s while the page is open),
 * "open in map app", trains and flights to the event's city on its day or the day before from a city
 * the shopper picks (remembered on the device), and "remind me": the mini-program's subscription
 * message where the shop has one and the shopper allows it, else mail.
 */
import { useEffect, useRef, useState } from 'react'
import Taro, { useDidShow, useRouter, useShareAppMessage } from '@tarojs/taro'
import { Image, Input, Picker, Text, View } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { EventDetail, ReminderChannel } from '~types/events'
import type { DrivingRoute } from '~types/geo'
import type { FlightResult, TicketsResult } from '~types/travel'
import { CITIES, cityOf, type City } from '~types/cities'
import { withPageError } from '@/components/PageError/wrap'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import MapView from '@/components/MapView'
import { drivingRoute, formatDistance, formatDuration, movedMetres, type Spot } from '@/components/PickupPicker/routes'
import { LOCATION_REFRESH_MS } from '@/constants'
import { eventsApi } from '@/services/events'
import { travelApi } from '@/services/travel'
import { errorMessage } from '@/services/request'
import { localeStore, t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { a11yImage, formatCents, tr } from '@/utils/format'
import { locate } from '@/utils/location'
import { openInMapApp } from '@/utils/mapLinks'
import { mediaUrl } from '@/utils/media'
import { readVariable, writeVariable } from '@/utils/storage'
import { serverNow, syncServerClock } from '@/utils/serverClock'
import { useRemote, type Remote } from '@/utils/useRemote'
import { addDays, chinaClock, chinaDay, flightPlan, trainPlan, type TravelBlock } from '@/utils/travel'
import './index.scss'

/** The city the shopper travels from, remembered on the device. */
const FROM_KEY = 'eventFromCity'
const FOLLOW_METRES = 100

type Trip<T> = { state: 'idle' } | { state: 'busy' } | { state: 'done'; result: T } | { state: 'failed'; message: string }

/** A travel answer as the page shows it: being asked, the trips, or why not. */
function trip<T> (r: Remote<T>): Trip<T> {
  return r.loading ? { state: 'busy' } : r.failed ? { state: 'failed', message: errorMessage(r.error) } : r.data ? { state: 'done', result: r.data } : { state: 'idle' }
}

function EventPage () {
  const { params } = useRouter()
  const eventId = Number(params.id)
  const valid = Number.isInteger(eventId) && eventId > 0
  const [origin, setOrigin] = useState<Spot | null>(null)
  const originRef = useRef<Spot | null>(null)
  originRef.current = origin
  const [from, setFrom] = useState<City | null>(() => cityOf(readVariable<string>(FROM_KEY) ?? '') ?? null)
  const [dayBefore, setDayBefore] = useState(false)
  const [email, setEmail] = useState('')
  const [askEmail, setAskEmail] = useState(false)
  const lang = localeStore.locale === 'en' ? 'en' : 'zh'

  // read each time the page shows
  const answer = useRemote<EventDetail>(() => eventsApi.detail(eventId), [], { loadOnMount: false, onError: e => toast({ message: errorMessage(e) }) })
  const load = async () => { if (valid) await answer.reload() }
  useDidShow(() => { void load(); void syncServerClock() })
  const detail = answer.data ?? null
  const missing = !valid || answer.failed
  useShareAppMessage(() => ({ title: detail ? tr(detail.event.title) : '', path: `/pagesA/event/index?id=${eventId}` }))

  const event = detail?.event ?? null
  const live = event?.status === 'announced' && Date.parse(event.endsAt) > serverNow()

  // where the shopper is, again every 30 s while the page is open (spec 9)
  useEffect(() => {
    if (!live) return undefined
    let on = true
    const here = async () => {
      try {
        const at = await locate()
        if (!on) return
        const now = originRef.current
        if (!now || movedMetres(now, at) > FOLLOW_METRES) setOrigin({ latitude: at.latitude, longitude: at.longitude })
      } catch { /* no position: the map shows the venue alone */ }
    }
    void here()
    const timer = setInterval(() => { void here() }, LOCATION_REFRESH_MS)
    return () => { on = false; clearInterval(timer) }
  }, [live])

  // the route from there to the venue
  const routeAnswer = useRemote<DrivingRoute>(() => drivingRoute(detail!.routeProvider!, origin!, event!), [origin?.latitude, origin?.longitude, event?.id],
    { enabled: !!(origin && event && detail?.routeProvider) })
  const route: DrivingRoute | 'failed' | null = routeAnswer.failed ? 'failed' : routeAnswer.data ?? null

  // trains and flights from the chosen city, when it or the day changes
  const to = event ? cityOf(event.city.zh) ?? null : null
  const day = event ? addDays(chinaDay(Date.parse(event.startsAt)), dayBefore ? -1 : 0) : ''
  const trainBlock: TravelBlock | null = from && to ? trainPlan(from, to, day, serverNow()) : null
  const flightBlock: TravelBlock | null = from && to ? flightPlan(from, to, day, serverNow(), lang) : null
  const trainDate = trainBlock?.kind === 'ask' ? trainBlock.date : ''
  const flightDate = flightBlock?.kind === 'ask' ? flightBlock.date : ''
  const travelDeps = [detail?.event.id, from?.zh, day, live]
  const asking = !!(detail && from && to && live)
  const trains = trip(useRemote<TicketsResult>(() => travelApi.tickets(from!.station, to!.station, trainDate), travelDeps,
    { enabled: asking && !!detail?.travel.trains && trainBlock?.kind === 'ask' }))
  const flights = trip(useRemote<FlightResult>(() => travelApi.flights(from!.airport!, to!.airport!, flightDate), travelDeps,
    { enabled: asking && !!detail?.travel.flights && flightBlock?.kind === 'ask' }))

  if (missing) return <PageShell><EmptyState icon='🔍' text={t('event.notFound')} /></PageShell>
  if (!detail || !event) return <PageShell><Text className='event-loading'>{t('feedback.loading')}</Text></PageShell>

  const pickFrom = (i: number) => {
    const city = CITIES[i]
    if (!city) return
    setFrom(city)
    writeVariable(FROM_KEY, city.zh)
  }

  const reminder = detail.reminder
  // the subscription message is the mini-program's; in a browser, mail
  const usable = reminder.channels.filter(c => c !== 'wechat' || process.env.TARO_ENV === 'weapp')
  const askReminder = async (channel: ReminderChannel, address?: string) => {
    try {
      await loading.wrap(eventsApi.remind(event.id, channel, address))
      toast({ message: t('event.remindSet'), level: 'success' })
      setAskEmail(false)
      await load()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  /** The mini-program asks WeChat's consent for one message first (it must come from this tap). */
  const remindMe = async () => {
    if (usable.includes('wechat') && reminder.wechatTemplateId) {
      const id = reminder.wechatTemplateId
      try {
        const answer = await Taro.requestSubscribeMessage({ tmplIds: [id], entityIds: [] } as never) as unknown as Record<string, string>
        if (answer[id] === 'accept') { await askReminder('wechat'); return }
      } catch { /* WeChat could not ask: mail instead, where the shop can */ }
      if (!usable.includes('mail')) { toast({ message: t('event.remindRefused') }); return }
    }
    if (reminder.accountEmail) await askReminder('mail')
    else setAskEmail(true)
  }
  const cancelReminder = async () => {
    try {
      await loading.wrap(eventsApi.remindCancel(event.id))
      toast({ message: t('event.remindCancelled'), level: 'success' })
      await load()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  const drive = route && route !== 'failed' ? route : null
  const blockText = (b: TravelBlock | null) =>
    !b ? '' : b.kind === 'sameCity' ? t('event.sameCity') : b.kind === 'past' ? t('event.travelPast')
      : b.kind === 'notYet' ? t('event.trainsNotYet', { date: b.opens }) : b.kind === 'noAirport' ? t('event.noAirport', { city: b.city }) : ''

  return (
    <PageShell className='event-page'>
      <View className='event-head'>
        {event.seriesCover ? <Image className='event-head__img' src={mediaUrl(event.seriesCover, 160)} mode='aspectFill' {...a11yImage(tr(event.seriesTitle))} /> : null}
        <View className='event-head__body'>
          <Text className='event-head__title'>{tr(event.title)}</Text>
          <Text className='event-head__series'>{t('event.ofSeries', { series: tr(event.seriesTitle) })}</Text>
          <Text className='event-head__when'>{t('event.when', { start: chinaClock(event.startsAt), end: chinaClock(event.endsAt).slice(chinaDay(Date.parse(event.startsAt)) === chinaDay(Date.parse(event.endsAt)) ? 11 : 0) })}</Text>
          {event.status === 'cancelled' && <Text className='event-head__cancelled event-cancelled'>{t('event.isCancelled')}</Text>}
          {event.status === 'announced' && !live && <Text className='event-head__cancelled event-over'>{t('event.isOver')}</Text>}
        </View>
      </View>

      <Section title={t('event.venue')} className='event-venue'>
        <Text className='event-venue__name'>{lang === 'en' ? event.city.en : event.city.zh} · {event.venue}</Text>
        <Text className='event-venue__address'>{event.address}</Text>
        <MapView points={[{ id: event.id, latitude: event.latitude, longitude: event.longitude, title: event.venue }]}
          selectedId={event.id} origin={origin} route={drive?.polyline ?? null} webMapScript={detail.webMap?.script ?? null} />
        {drive && <Text className='event-route'>{t('pickup.drive', { distance: formatDistance(drive.distance), time: formatDuration(drive.duration) })}</Text>}
        {route === 'failed' && <Text className='event-hint event-hint--warn'>{t('geo.mapRequestFailed')}</Text>}
        {drive && drive.steps.length > 0 && (
          <View className='event-steps'>
            {drive.steps.slice(0, 12).map((s, i) => <Text key={i} className='event-steps__step'>{i + 1}. {s.instruction}{s.distance ? ` (${formatDistance(s.distance)})` : ''}</Text>)}
          </View>
        )}
        <View className='btn btn--ghost event-open-map' onClick={() => { openInMapApp({ latitude: event.latitude, longitude: event.longitude, name: event.venue, address: event.address }).catch(e => toast({ message: errorMessage(e) })) }}>{t('pickup.openMap')}</View>
      </Section>

      {live && (detail.travel.trains || detail.travel.flights) && (
        <Section title={t('event.travel')} className='event-travel'>
          <View className='event-travel__from'>
            <Picker className='event-from-picker' mode='selector' range={CITIES.map(c => c[lang])} value={Math.max(0, CITIES.findIndex(c => c.zh === from?.zh))} onChange={e => pickFrom(Number(e.detail.value))}>
              <View className='event-from'>{from ? t('event.from', { city: from[lang] }) : t('event.pickFrom')} ▾</View>
            </Picker>
            <View className='event-days'>
              <Text className={`chip event-day-before ${dayBefore ? 'chip--on' : ''}`} onClick={() => setDayBefore(true)}>{t('event.dayBefore')}</Text>
              <Text className={`chip event-day-of ${dayBefore ? '' : 'chip--on'}`} onClick={() => setDayBefore(false)}>{t('event.dayOf')}</Text>
            </View>
          </View>
          {from && (
            <View className='event-trips'>
              <Text className='event-trips__head'>{t('event.trainsOn', { date: day })}</Text>
              {!detail.travel.trains ? null : trainBlock?.kind !== 'ask' ? <Text className='event-hint event-trains-block'>{blockText(trainBlock)}</Text>
                : trains.state === 'busy' ? <Text className='event-hint'>{t('feedback.loading')}</Text>
                  : trains.state === 'failed' ? <Text className='event-hint event-hint--warn'>{trains.message}</Text>
                    : trains.state === 'done' && trains.result.trains.length === 0 ? <Text className='event-hint'>{t('event.noTrains')}</Text>
                      : trains.state === 'done' && trains.result.trains.slice(0, 20).map(tr0 => {
                        const priced = tr0.seats.filter(s => s.priceCents !== null).sort((a, b) => a.priceCents! - b.priceCents!)[0]
                        return (
                          <View key={tr0.code} className='event-trip event-train'>
                            <Text className='event-trip__code'>{tr0.code}</Text>
                            <Text className='event-trip__times'>{tr0.departs} {tr0.from} → {tr0.arrives} {tr0.to}</Text>
                            <Text className='event-trip__price'>{priced ? t('event.fromPrice', { price: formatCents(priced.priceCents!), seat: priced.name }) : ''}</Text>
                          </View>
                        )
                      })}
              <Text className='event-trips__head'>{t('event.flightsOn', { date: day })}</Text>
              {!detail.travel.flights ? null : flightBlock?.kind !== 'ask' ? <Text className='event-hint event-flights-block'>{blockText(flightBlock)}</Text>
                : flights.state === 'busy' ? <Text className='event-hint'>{t('feedback.loading')}</Text>
                  : flights.state === 'failed' ? <Text className='event-hint event-hint--warn'>{flights.message}</Text>
                    : flights.state === 'done' && flights.result.flights.length === 0 ? <Text className='event-hint'>{t('event.noFlights')}</Text>
                      : flights.state === 'done' && flights.result.flights.slice(0, 20).map(f => (
                        <View key={f.flightNo} className='event-trip event-flight'>
                          <Text className='event-trip__code'>{f.flightNo} {f.airline}</Text>
                          <Text className='event-trip__times'>{f.departs.slice(11)} {f.from} → {f.arrives.slice(11)} {f.to}</Text>
                          <Text className='event-trip__price'>{f.priceCents !== null ? t('event.price', { price: formatCents(f.priceCents) }) : ''}</Text>
                        </View>
                      ))}
            </View>
          )}
        </Section>
      )}

      {live && usable.length > 0 && (
        <Section title={t('event.reminder')} className='event-reminder'>
          {reminder.mine && reminder.mine.status !== 'failed'
            ? (
              <View>
                <Text className='event-reminder__state'>
                  {reminder.mine.status === 'sent' ? t('event.remindSent') : t(reminder.mine.channel === 'wechat' ? 'event.remindByWechat' : 'event.remindByMail', { time: chinaClock(reminder.mine.remindAt), email: reminder.mine.email ?? '' })}
                </Text>
                {reminder.mine.status === 'waiting' && <View className='btn btn--ghost event-remind-cancel' onClick={() => { void cancelReminder() }}>{t('event.remindCancel')}</View>}
              </View>
              )
            : (
              <View>
                <Text className='event-hint'>{t('event.remindHint')}</Text>
                {askEmail && (
                  <View className='event-email'>
                    <Input className='input event-email-input' type='text' value={email} maxlength={254} placeholder={t('event.emailPlaceholder')} onInput={e => setEmail(e.detail.value)} />
                    <View className='btn event-email-save' onClick={() => { void askReminder('mail', email) }}>{t('event.remindByMailButton')}</View>
                  </View>
                )}
                {/* in the mini-program the button asks WeChat again after a refusal */}
                {(!askEmail || usable.includes('wechat')) && <View className={`btn ${askEmail ? 'btn--ghost' : ''} event-remind`} onClick={() => { void remindMe() }}>🔔 {t(askEmail ? 'event.remindByWechatButton' : 'event.remindMe')}</View>}
              </View>
              )}
        </Section>
      )}
    </PageShell>
  )
}

export default withPageError(observer(EventPage))
