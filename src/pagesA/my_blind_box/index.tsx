// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View, ScrollView, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import type { PrizeItem, PrizeStatus } from '~types/shop'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import ListEnd from '@/components/ListEnd'
import RarityBadge from '@/components/RarityBadge'
import ShipSheet from '@/components/ShipSheet'
import ParcelCard from '@/components/ParcelCard'
import { downloadXlsx } from '@/services/data'
import { shopApi } from '@/services/shop'
import { afterDrawApi } from '@/services/afterDraw'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { prizeStatusKey } from '@/utils/prizeStatus'
import type { MessageKey } from '@/locales/types'
import { dialog, loading, toast } from '@/utils/feedback'
import { navigate, redirect } from '@/utils/navigation'
import { formatCents, tr, a11yImage, designLabel, decorativeImage } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { useRequestKeys } from '@/utils/requestKey'
import { ScanError, scanPrizeCode } from '@/utils/scan'
import { useListPageEvents, usePagedList, useRemote } from '@/utils/useRemote'
import { COLLECTION_PAGE_SIZE } from './paging'
import './index.scss'

type Filter = 'all' | PrizeStatus
type View_ = 'prizes' | 'parcels'

const FILTERS: Filter[] = ['all', 'warehouse', 'shipping', 'received', 'combined', 'recycled']

/**
 * My collection: sets by series (7/12, missing designs greyed), prizes by status with counts and
 * paging, multi-select to ship or recycle, parcels with tracking and "confirm receipt", export.
 */
function MyBlindBoxPage () {
  // ?view=parcels (a shipment of "My orders") opens on the parcels
  const { params } = useRouter()
  const [view, setView] = useState<View_>(params.view === 'parcels' ? 'parcels' : 'prizes')
  const [filter, setFilter] = useState<Filter>('all')
  const [selecting, setSelecting] = useState(false)
  const [selected, setSelected] = useState<Map<number, PrizeItem>>(new Map())
  const [shipping, setShipping] = useState(false)
  const recycleKeys = useRequestKeys()

  // loaded when the page shows (useDidShow) and when the view or the filter changes
  const loggedIn = sessionStore.loggedIn
  const onError = (e: unknown) => toast({ message: errorMessage(e) })
  const summaryRemote = useRemote(() => afterDrawApi.collection(), [], { enabled: loggedIn, loadOnMount: false, onError })
  const prizeList = usePagedList(
    (page, size) => shopApi.prizeList(filter === 'all' ? { page, size } : { page, size, status: filter }),
    { pageSize: COLLECTION_PAGE_SIZE, deps: [filter], clearOnChange: true, enabled: loggedIn && view === 'prizes', loadOnMount: false, onError })
  const parcelList = usePagedList(
    (page, size) => afterDrawApi.shipmentList({ page, size }),
    { pageSize: COLLECTION_PAGE_SIZE, enabled: loggedIn && view === 'parcels', loadOnMount: false, onError })
  const current = view === 'prizes' ? prizeList : parcelList
  const summary = summaryRemote.data ?? null
  // a failed first page shows the empty state rather than nothing
  const prizes = prizeList.items ?? (prizeList.failed ? [] : null)
  const parcels = parcelList.items

  const reload = async () => {
    if (!sessionStore.loggedIn) return
    await Promise.all([summaryRemote.reload(), current.refresh()])
  }
  useDidShow(() => { void reload() })
  useListPageEvents(current)

  const choose = (f: Filter) => {
    setFilter(f)
    void summaryRemote.reload()
    // another filter loads by itself (deps); the same one again reloads
    if (f === filter && view === 'prizes') void prizeList.refresh()
  }
  const switchView = (v: View_) => { setView(v); setSelecting(false); setSelected(new Map()); void summaryRemote.reload() }

  const toggle = (p: PrizeItem) => {
    if (p.status !== 'warehouse') { toast({ message: t('collection.onlyWarehouse') }); return }
    const next = new Map(selected)
    if (next.has(p.prizeId)) next.delete(p.prizeId)
    else next.set(p.prizeId, p)
    setSelected(next)
  }
  const credit = [...selected.values()].reduce((s, p) => s + p.design.recycleValueCents, 0)

  const recycle = async () => {
    if (!selected.size) return
    const ok = await dialog({ title: t('collection.recycleTitle'), message: t('collection.recycleBody', { n: selected.size, credit: formatCents(credit) }), confirmText: t('collection.recycle') })
    if (!ok) return
    try {
      // a tap again after a lost answer is the same recycling: it answers the first result
      // (in one order: the server refuses a key sent again with a different body)
      const ids = [...selected.keys()].sort((a, b) => a - b)
      const res = await loading.wrap(afterDrawApi.recycle({ prizeIds: ids, idempotencyKey: recycleKeys.keyFor(ids.join(',')) }))
      recycleKeys.done()
      toast({ message: t('collection.recycled_done', { credit: formatCents(res.creditCents) }), level: 'success' })
      setSelected(new Map())
      setSelecting(false)
      await reload()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  const scan = async () => {
    try {
      const { prizeId, code } = await scanPrizeCode()
      void navigate(`/pagesA/prize_detail/index?prizeId=${prizeId}&verify=${encodeURIComponent(code)}`)
    } catch (e) {
      if (e instanceof ScanError && e.kind === 'canceled') return
      toast({ message: errorMessage(e) })
    }
  }

  const exportAll = async () => {
    try {
      const name = await loading.wrap(downloadXlsx('/api/prizeExport', filter === 'all' ? {} : { status: filter }, 'prizes'))
      toast({ message: t('collection.exported', { name }), level: 'success' })
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }

  if (!sessionStore.loggedIn) {
    return (
      <PageShell className='collection-page'>
        <EmptyState icon='🔒' text={t('collection.loginFirst')}
          action={{ label: t('profile.loginNow'), onClick: () => { void redirect('/pages/login/index') } }} />
      </PageShell>
    )
  }

  const counts = summary?.counts
  const emptyText: MessageKey = filter === 'all' ? 'collection.emptyAll' : filter === 'warehouse' ? 'collection.emptyWarehouse' : 'collection.emptyOther'

  return (
    <PageShell className={`collection-page ${selecting ? 'collection-page--selecting' : ''}`}>
      <View className='collection-views'>
        {(['prizes', 'parcels'] as const).map(v => (
          <View key={v} className={`collection-view collection-view-${v} ${view === v ? 'collection-view--on' : ''}`} onClick={() => switchView(v)}>
            {t(v === 'prizes' ? 'collection.prizesTab' : 'collection.parcelsTab')}
          </View>
        ))}
      </View>
      <View className='collection-actions'>
        <View className='collection-combine' onClick={() => navigate('/pagesA/combine/index')}>{t('combine.toCombine')}</View>
        <View className='collection-scan' onClick={scan}>{t('collection.scan')}</View>
        <View className='collection-export' onClick={exportAll}>{t('collection.export')}</View>
      </View>

      {view === 'prizes' && (
        <>
          {summary && summary.series.length > 0 && filter === 'all' && (
            <ScrollView scrollX className='sets' enableFlex>
              {summary.series.map(s => (
                <View key={s.seriesId} className={`set set-${s.seriesId}`} onClick={() => navigate(`/pagesA/blind_box_detail/index?seriesId=${s.seriesId}`)}>
                  <Text className='set__title'>{tr(s.title)}</Text>
                  <Text className='set__progress'>{t('collection.progress', { owned: s.collected, total: s.total })}</Text>
                  <View className='set__bar'><View className='set__fill' style={{ width: `${s.total ? Math.round(100 * s.collected / s.total) : 0}%` }} /></View>
                  <View className='set__designs'>
                    {s.designs.map(d => (
                      <Image key={d.design.id} className={`set__design ${d.owned ? '' : 'set__design--missing'}`} src={mediaUrl(d.design.image, 56)} mode='aspectFit' lazyLoad {...a11yImage(designLabel(d.design))} />
                    ))}
                  </View>
                </View>
              ))}
            </ScrollView>
          )}
          <View className='collection-bar'>
            {/* the chips wrap (a scrolling row hid the last one under the select button at 375 px, issue 48) */}
            <View className='filters'>
              {FILTERS.map(f => (
                <View key={f} className={`filter filter-${f} ${filter === f ? 'filter--on' : ''}`} onClick={() => choose(f)}>
                  {t(`collection.${f}`)}{counts ? ` ${counts[f]}` : ''}
                </View>
              ))}
            </View>
            {counts && counts.warehouse > 0 && (
              <View className='collection-select' onClick={() => { setSelecting(!selecting); setSelected(new Map()) }}>
                {t(selecting ? 'collection.done' : 'collection.select')}
              </View>
            )}
          </View>
          {prizes && prizes.length > 0 && prizes.map(p => {
            const on = selected.has(p.prizeId)
            return (
              <View key={p.prizeId} className={`prize-row prize-${p.prizeId} ${on ? 'prize-row--on' : ''}`}
                onClick={() => (selecting ? toggle(p) : navigate(`/pagesA/prize_detail/index?prizeId=${p.prizeId}`))}>
                {selecting && <View className={`check ${on ? 'check--on' : ''} ${p.status !== 'warehouse' ? 'check--off' : ''}`}>{on ? '✓' : ''}</View>}
                <Image className='prize-row__img' src={mediaUrl(p.design.image, 88)} mode='aspectFit' lazyLoad {...decorativeImage()} />
                <View className='prize-row__body'>
                  <Text className='prize-row__name'>{tr(p.design.name)}</Text>
                  <Text className='prize-row__series'>{tr(p.seriesTitle)}</Text>
                </View>
                <View className='prize-row__side'>
                  <RarityBadge rarity={p.design.rarity} />
                  <Text className='prize-row__status'>{t(prizeStatusKey(p))}</Text>
                </View>
              </View>
            )
          })}
          <ListEnd count={prizes?.length} hasMore={!!prizes && prizes.length < prizeList.total} more={t('collection.loadMore')} className='collection-end'
            empty={{ icon: '🧸', text: t(emptyText), action: { label: t('collection.goShop'), onClick: () => { void redirect('/pagesA/home/index') } } }} />
        </>
      )}

      {view === 'parcels' && (
        <>
          {parcels && parcels.map(s => (
            <ParcelCard key={s.id} shipment={s} onChanged={c => { parcelList.setItems(list => list.map(x => (x.id === c.id ? c : x))); void reload() }} />
          ))}
          <ListEnd count={parcels?.length} hasMore={!!parcels && parcels.length < parcelList.total} more={t('collection.loadMore')} className='collection-end'
            empty={{ icon: '📦', text: t('collection.emptyParcels'), action: { label: t('collection.warehouse'), onClick: () => { setView('prizes'); choose('warehouse') } } }} />
        </>
      )}

      {selecting && (
        <View className='select-bar'>
          <View className='select-bar__info'>
            <Text className='select-bar__count'>{t('collection.selected', { n: selected.size })}</Text>
            {selected.size > 0 && <Text className='select-bar__credit'>{t('collection.recycle')} +{formatCents(credit)}</Text>}
          </View>
          <View className={`btn btn--ghost select-recycle ${selected.size ? '' : 'btn--disabled'}`} onClick={recycle}>{t('collection.recycle')}</View>
          <View className={`btn btn--primary select-ship ${selected.size ? '' : 'btn--disabled'}`} onClick={() => { if (selected.size) setShipping(true) }}>{t('collection.ship')}</View>
        </View>
      )}
      {shipping && (
        <ShipSheet prizeIds={[...selected.keys()]} onClose={() => setShipping(false)}
          onShipped={() => { setShipping(false); setSelected(new Map()); setSelecting(false); switchView('parcels') }} />
      )}
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(MyBlindBoxPage))
