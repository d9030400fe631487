// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useEffect, useRef, useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { View, Text, Image, Button } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import ActionBar from '@/components/ActionBar'
import RarityBadge from '@/components/RarityBadge'
import TierBadge from '@/components/TierBadge'
import { capabilitiesStore } from '@/stores/capabilities'
import { drawStore, purchaseIdOf } from '@/stores/draw'
import { t } from '@/stores/locale'
import { isH5 } from '@/config'
import { toast } from '@/utils/feedback'
import { formatCents, tr, a11yImage, designLabel } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { DOUBLE_CHANCE, isKujiDesign, isLastOne, tierName } from '@/utils/kujiTier'
import { navigate, redirect, shareMessage } from '@/utils/navigation'
import { AudioPlayer } from '@/utils/audio'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { speechApi } from '@/services/speech'
import { localeStore } from '@/stores/locale'
import './index.scss'

const RANK = { hidden: 0, rare: 1, regular: 2 } as const
/** A 一番赏 prize's place in the list: the Last One first, the Double Chance next, then by tier (A first). */
const tierRank = (tier: string | undefined) => (isLastOne(tier) ? 0 : tier === DOUBLE_CHANCE ? 1 : 2 + (tier ?? '~').charCodeAt(0))

/**
 * The results of an opening, rare and hidden ones first and highlighted, with the next steps. A 一番赏
 * draw's prizes by tier (A first), each with its ticket; the Last One, won with the set's final ticket,
 * first and said above them.
 */
function PrizeShowPage () {
  const purchaseId = purchaseIdOf(useRouter().params)
  useEffect(() => { if (purchaseId !== null) void drawStore.show(purchaseId) }, [purchaseId])
  const result = drawStore.showing(purchaseId)
  const player = useRef<AudioPlayer | null>(null)
  const [reading, setReading] = useState(false)
  useEffect(() => () => { player.current?.destroy() }, [])
  // the button shows only when the shop can read aloud (its public capabilities)
  useEffect(() => { capabilitiesStore.ensure().catch(() => undefined) }, [])
  if (purchaseId !== null && !result && !drawStore.failure) return <PageShell className='prize-show-page'><Text className='prize-show-loading'>{t('feedback.loading')}</Text></PageShell>
  if (!result || result.prizes.length === 0) {
    return <PageShell className='prize-show-page'><EmptyState icon='🏆' text={drawStore.failure ?? t('prize.none')} action={{ label: t('titles.home'), onClick: () => { void redirect('/pages/home/index') } }} /></PageShell>
  }
  const prizes = [...result.prizes].sort((a, b) => isKujiDesign(a.design) && isKujiDesign(b.design)
    ? tierRank(a.design.tier) - tierRank(b.design.tier) || a.slot - b.slot
    : RANK[a.design.rarity] - RANK[b.design.rarity] || a.slot - b.slot)
  const lastOne = prizes.find(p => isLastOne(p.design.tier)) ?? null
  const value = prizes.reduce((sum, p) => sum + p.design.referenceValueCents, 0)
  const share = { title: t('prize.shareTitle', { n: prizes.length }), path: '/pages/blind_box_detail/index', query: { seriesId: result.seriesId } }

  /** The results read aloud in the app's language (spec 7 /api/text/tts, played through the AudioPlayer). */
  const readAloud = async () => {
    if (reading) return
    setReading(true)
    try {
      const list = prizes.map(p => t('prize.speechItem', { rarity: p.design.tier ? tierName(p.design.tier) : t(`rarity.${p.design.rarity}`), name: tr(p.design.name) })).join(localeStore.locale === 'zh' ? '，' : ', ')
      const audio = await speechApi.tts({ text: t('prize.speech', { n: prizes.length, list }), lang: localeStore.locale })
      player.current?.destroy()
      const p = new AudioPlayer({ src: mediaUrl(audio.url) })
      player.current = p
      p.on('ended', () => setReading(false))
      p.on('error', () => setReading(false))
      await p.play()
    } catch (e) {
      setReading(false)
      if (e instanceof ApiError && e.code === 422 && (e.data as { provider?: string } | null)?.provider === 'tts') {
        capabilitiesStore.turnOff('speech')
        toast({ message: t('prize.speechOff') })
      } else {
        toast({ message: errorMessage(e) })
      }
    }
  }

  /** @h5only copies a link to this page's series (the mini-program shares through its own button) */
  const shareH5 = async () => {
    const link = `${location.origin}${shareMessage(share).path}`
    try {
      await Taro.setClipboardData({ data: link })
      toast({ message: t('prize.linkCopied'), level: 'success' })
    } catch {
      toast({ message: link })
    }
  }

  return (
    <PageShell className='prize-show-page' share={share}>
      <View className='prize-summary'>
        <Text className='prize-summary__title'>{t('prize.results')}</Text>
        <Text className='prize-summary__text'>{t('prize.summary', { n: prizes.length, value: formatCents(value), paid: formatCents(result.totalCents) })}</Text>
      </View>
      {lastOne && (
        <View className='last-one' onClick={() => navigate(`/pages/prize_detail/index?prizeId=${lastOne.prizeId}`)}>
          <Image className='last-one__img' src={mediaUrl(lastOne.design.image, 160)} mode='aspectFit' {...a11yImage(designLabel(lastOne.design))} />
          <View className='last-one__body'>
            <Text className='last-one__badge'>{t('kuji.lastOneBadge')}</Text>
            <Text className='last-one__title'>{t('kuji.lastOneTitle')}</Text>
            <Text className='last-one__name'>{tr(lastOne.design.name)}</Text>
            <Text className='last-one__text'>{t('kuji.lastOneText')}</Text>
          </View>
        </View>
      )}
      {capabilitiesStore.has('speech') && (
        <View className={`prize-read ${reading ? 'prize-read--on' : ''}`} onClick={() => { void readAloud() }}>{reading ? t('prize.reading') : t('prize.readAloud')}</View>
      )}
      <Section>
        {prizes.map(p => (
          <View key={p.prizeId} className={`result result--${p.design.rarity} result-${p.prizeId} ${isLastOne(p.design.tier) ? 'result--last-one' : ''}`}
            onClick={() => navigate(`/pages/prize_detail/index?prizeId=${p.prizeId}`)}>
            <Image className='result__img' src={mediaUrl(p.design.image, 110)} mode='aspectFit' {...a11yImage(designLabel(p.design))} />
            <View className='result__body'>
              <Text className='result__name'>{tr(p.design.name)}</Text>
              <Text className='result__meta'>{isLastOne(p.design.tier) ? t('kuji.lastOne') : isKujiDesign(p.design) ? t('kuji.ticket', { n: p.slot }) : t('chest.slot', { slot: p.slot })} · {t('prize.value')} {formatCents(p.design.referenceValueCents)}</Text>
            </View>
            {p.design.tier ? <TierBadge tier={p.design.tier} /> : <RarityBadge rarity={p.design.rarity} />}
          </View>
        ))}
      </Section>
      <ActionBar>
        <View className='btn btn--ghost prize-again' onClick={() => redirect(`/pages/blind_box_detail/index?seriesId=${result.seriesId}`)}>{t('prize.again')}</View>
        {isH5()
          ? <View className='btn btn--ghost prize-share' onClick={shareH5}>{t('prize.share')}</View>
          : <Button className='btn btn--ghost prize-share' openType='share'>{t('prize.share')}</Button>}
        <View className='btn btn--primary prize-collection' onClick={() => redirect('/pages/my_blind_box/index')}>{t('prize.toCollection')}</View>
      </ActionBar>
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(PrizeShowPage))
