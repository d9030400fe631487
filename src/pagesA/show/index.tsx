// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, ScrollView } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import type { ShowPost, ShowSort } from '~types/show'
import { SHOW_SORTS } from '~types/limits'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import ListEnd from '@/components/ListEnd'
import ShowCard from '@/components/ShowCard'
import Compose from './Compose'
import { shopApi } from '@/services/shop'
import { showApi } from '@/services/show'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { toast } from '@/utils/feedback'
import { a11yControl, tr } from '@/utils/format'
import { navigate, redirect } from '@/utils/navigation'
import { rememberReturn } from '@/utils/loginReturn'
import { useListPageEvents, usePagedList, useRemote } from '@/utils/useRemote'
import './index.scss'

const PAGE_SIZE = 10

/**
 * The player show (玩家秀): everyone's posts, newest or most liked first, of every series or one;
 * a logged-in shopper posts their own prizes from here (?compose=1&prizeId=N opens the form with that
 * prize picked, as the prize page's "share to the player show" does).
 */
function ShowPage () {
  const { params } = useRouter()
  const [sort, setSort] = useState<ShowSort>(params.sort === 'popular' ? 'popular' : 'newest')
  const [seriesId, setSeriesId] = useState<number | undefined>(Number(params.seriesId) > 0 ? Number(params.seriesId) : undefined)
  const startPrize = Number(params.prizeId) > 0 ? Number(params.prizeId) : undefined
  const [composing, setComposing] = useState(params.compose === '1' && sessionStore.loggedIn)

  const posts = usePagedList((page, size) => showApi.list({ page, size, sort, ...(seriesId ? { seriesId } : {}) }),
    { pageSize: PAGE_SIZE, deps: [sort, seriesId], clearOnChange: true })
  useListPageEvents(posts, { pullDownRefresh: true })
  // the series filter's choices: the series on the shelf
  const series = useRemote(() => shopApi.seriesList({ page: 1, size: 30 }), [])

  const like = async (post: ShowPost) => {
    if (!sessionStore.loggedIn) { toast({ message: t('show.loginFirst') }); return }
    try {
      const r = await showApi.like(post.id, !post.liked)
      posts.setItems(list => list.map(p => p.id === post.id ? { ...p, liked: r.liked, likeCount: r.likeCount } : p))
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const compose = () => {
    if (sessionStore.loggedIn) { setComposing(true); return }
    rememberReturn('/pages/show/index?compose=1')
    void redirect('/pages/login/index')
  }
  const open = (id: number) => navigate(`/pages/show_post/index?id=${id}`)

  if (composing) {
    return (
      <PageShell className='show-page'>
        <Compose prizeId={startPrize} onClose={() => setComposing(false)} onPosted={p => { setComposing(false); void posts.refresh(); open(p.id) }} />
      </PageShell>
    )
  }
  const chips = [{ id: undefined as number | undefined, label: t('show.allSeries') }, ...(series.data?.list ?? []).map(s => ({ id: s.id as number | undefined, label: tr(s.title) }))]
  return (
    <PageShell className='show-page' share={{ title: t('titles.show'), path: '/pagesA/show/index', query: seriesId ? { seriesId } : {} }}>
      <View className='show-top'>
        <View className='show-sorts' role='tablist'>
          {SHOW_SORTS.map(s => (
            <View key={s} className={`show-sort show-sort-${s} ${sort === s ? 'show-sort--on' : ''}`} {...a11yControl(undefined, 'tab')}
              aria-selected={sort === s ? 'true' : 'false'} onClick={() => setSort(s)}>{t(`show.${s}`)}</View>
          ))}
        </View>
        <View className='btn btn--primary show-compose-open' {...a11yControl()} onClick={compose}>{t('show.compose')}</View>
      </View>
      <ScrollView scrollX className='show-series' enableFlex>
        {chips.map(c => (
          <View key={c.id ?? 0} className={`show-chip show-chip-${c.id ?? 0} ${seriesId === c.id ? 'show-chip--on' : ''}`} {...a11yControl()}
            aria-pressed={seriesId === c.id ? 'true' : 'false'} onClick={() => setSeriesId(c.id)}>{c.label}</View>
        ))}
      </ScrollView>
      {posts.items?.map(p => <ShowCard key={p.id} post={p} onOpen={() => open(p.id)} onLike={() => { void like(p) }} />)}
      {posts.failed && <EmptyState icon='⚠️' text={t('show.loadFailed')} action={{ label: t('feedback.retry'), onClick: posts.retry }} />}
      {!posts.failed && <ListEnd count={posts.items?.length} hasMore={posts.hasMore} loading={posts.loading} empty={{ icon: '📸', text: t('show.empty') }} className='show-more' />}
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(ShowPage))
