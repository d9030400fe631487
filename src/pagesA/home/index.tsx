import { useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import { withPageError } from '@/components/PageError/wrap'
import type { FeedItem, ThemeTag } from '~types/shop'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import ListEnd from '@/components/ListEnd'
import Section from '@/components/Section'
import LangSwitch from '@/components/LangSwitch'
import SeriesCard, { SeriesCardSkeleton } from '@/components/SeriesCard'
import RarityBadge from '@/components/RarityBadge'
import { shopApi } from '@/services/shop'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import type { MessageKey } from '@/locales/types'
import { agreementLink, navigate } from '@/utils/navigation'
import { tr, decorativeImage, a11yControl, A11Y_HIDDEN } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { rememberKind } from '@/utils/seriesKind'
import { useListPageEvents, usePagedList, useRemote } from '@/utils/useRemote'
import { FEED_REFRESH_MS } from './timing'
import { addressQuery, filterCount, finderFromParams, finderKey, finderParams, finderRequest, type FinderState } from './finder'
import { FinderControls, FinderEmpty, SearchBox, type FinderPatch } from './SeriesFinder'
import './index.scss'

const PAGE_SIZE = 10
const SKELETON_CARDS = [1, 2, 3]

const SHORTCUTS: { key: string; icon: string; label: MessageKey; link: string }[] = [
  // short labels: six share a 375 px row (English ones are about twice as wide)
  { key: 'boxes', icon: '🧸', label: 'home.toBoxes', link: '/pages/my_blind_box/index' },
  { key: 'combine', icon: '⚗️', label: 'home.toCombine', link: '/pages/combine/index' },
  // the player show: what others opened (issue 48: it had no way in)
  { key: 'show', icon: '📸', label: 'home.toShow', link: '/pages/show/index' },
  { key: 'props', icon: '🔮', label: 'profile.props', link: '/pages/props/index' },
  { key: 'wallet', icon: '💰', label: 'home.toWallet', link: '/pages/recharge/index' },
  { key: 'profile', icon: '👤', label: 'home.toProfile', link: '/pages/profile/index' }
]

const HOME_PATH = '/pagesA/home/index'

/** On H5 the address bar carries what is searched (shareable, kept on reload); the mini-program keeps it in the page. */
function showInAddress (state: FinderState) {
  if (process.env.TARO_ENV !== 'h5' || typeof window === 'undefined') return
  const qs = addressQuery(window.location.search, state)
  const url = `${window.location.pathname}${qs ? `?${qs}` : ''}${window.location.hash}`
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    window.history.replaceState(window.history.state, '', url)
  }
}

function HomePage () {
  const { params } = useRouter()
  const [finder, setFinder] = useState<FinderState>(() => finderFromParams(params))
  const key = finderKey(finder)
  const series = usePagedList((page, size) => shopApi.seriesList({ page, size, ...finderRequest(finder) }), { pageSize: PAGE_SIZE, deps: [key], clearOnChange: true })
  // `key` is the finder's content: the address changes when that does, not with each new state object
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useEffect(() => { showInAddress(finder) }, [key])
  // the theme tags come with every first page: keep the last ones while another loads
  const [tags, setTags] = useState<ThemeTag[]>([])
  const lastTags = series.last?.tags
  useEffect(() => { if (lastTags) setTags(lastTags) }, [lastTags])
  // searching or filtering: the results come right under the search box
  const looking = finder.q !== '' || filterCount(finder) > 0
  const change = (patch: FinderPatch) => setFinder(f => ({ ...f, ...(typeof patch === 'function' ? patch(f) : patch) }))
  // the feed is optional: no answer yet shows a placeholder line, a failure "no wins yet"
  const feed = useRemote(() => shopApi.liveFeed(10), [], { loadOnMount: false })
  const feedItems: FeedItem[] | null = feed.data ?? (feed.failed ? [] : null)
  const feedTimer = useRef<ReturnType<typeof setInterval> | null>(null)

  useDidShow(() => {
    void feed.reload()
    if (!feedTimer.current) feedTimer.current = setInterval(() => { void feed.reload() }, FEED_REFRESH_MS)
  })
  useDidHide(() => {
    if (feedTimer.current) clearInterval(feedTimer.current)
    feedTimer.current = null
  })
  useEffect(() => () => { if (feedTimer.current) clearInterval(feedTimer.current) }, [])
  useListPageEvents(series, { pullDownRefresh: feed.reload })
  const { page, failed, loading, hasMore } = series

  const name = sessionStore.displayName
  return (
    <PageShell className='home-page' share={{ path: HOME_PATH, query: finderParams(finder) }}>
      <View className='home-top'>
        <Text className='home-hello'>{name ? t('home.hello', { name }) : t('home.guest')}</Text>
        <LangSwitch />
      </View>
      <SearchBox query={finder.q} onSearch={q => change({ q })} />

      {!looking && <>
      <View className='home-banner' {...a11yControl(undefined, 'link')} onClick={() => navigate(agreementLink('fairness'))}>
        <Text className='home-banner__title'>{t('home.bannerTitle')}</Text>
        <Text className='home-banner__text'>{t('home.bannerText')}</Text>
        <Text className='home-banner__more'>{t('home.bannerMore')}<Text {...A11Y_HIDDEN}> ›</Text></Text>
        <Text className='home-banner__art' {...A11Y_HIDDEN}>🎁</Text>
      </View>

      <View className='home-shortcuts'>
        {SHORTCUTS.map(s => (
          <View key={s.key} className={`home-shortcut shortcut-${s.key}`} {...a11yControl(undefined, 'link')} onClick={() => navigate(s.link)}>
            <Text className='home-shortcut__icon' {...A11Y_HIDDEN}>{s.icon}</Text>
            <Text className='home-shortcut__label'>{t(s.label)}</Text>
          </View>
        ))}
      </View>

      <Section title={t('home.liveFeed')} className='home-feed'>
        {feedItems === null
          ? <View className='home-feed__placeholder skeleton-bar' />
          : feedItems.length === 0
            ? <Text className='home-feed__empty'>{t('home.feedEmpty')}</Text>
            : feedItems.map(item => (
            <View key={item.id} className='feed-row' {...a11yControl(undefined, 'link')} onClick={() => navigate(`/pages/blind_box_detail/index?seriesId=${item.seriesId}`)}>
              <Image className='feed-row__img' src={mediaUrl(item.design.image, 56)} mode='aspectFit' {...decorativeImage()} />
              <Text className='feed-row__text'>{t('home.feedLine', { name: item.maskedName, design: tr(item.design.name) })}</Text>
              <RarityBadge rarity={item.design.rarity} />
              <Text className='feed-row__go' {...A11Y_HIDDEN}>›</Text>
            </View>
            ))}
      </Section>
      </>}

      <View className='home-section-title'>{t('home.seriesOnSale')}</View>
      <FinderControls state={finder} tags={tags} onChange={change} />
      {looking && page > 0 && !failed && series.total > 0 && <Text className='finder-found'>{t('finder.found', { n: series.total })}</Text>}
      {page > 0 && !failed && series.items?.length === 0 && (looking
        ? <FinderEmpty state={finder} tags={tags} onChange={change} />
        : <EmptyState text={t('feedback.empty')} />)}
      {series.items?.map(s => (
        <SeriesCard key={s.id} series={s} onClick={() => { rememberKind(s.id, s.kind); void navigate(`/pages/blind_box_detail/index?seriesId=${s.id}`) }} />
      ))}
      {/* the first page on its way: cards of the same size, so nothing below jumps when it arrives
          (this is also what the H5 build prerenders into its HTML, see scripts/prerender.js) */}
      {page === 0 && !failed && SKELETON_CARDS.map(k => <SeriesCardSkeleton key={k} />)}
      {failed && <EmptyState icon='⚠️' text={t('home.loadFailed')} action={{ label: t('feedback.retry'), onClick: () => { void series.refresh() } }} />}
      {!failed && (loading || page === 0
        ? <Text className='home-more'>{t('feedback.loading')}</Text>
        : series.total > 0 && <ListEnd count={series.items?.length} hasMore={hasMore} empty={{}} className='home-more home-no-more' />)}
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(lightObserver(HomePage))
