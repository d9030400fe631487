// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useEffect, useRef, useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import RarityBadge from '@/components/RarityBadge'
import TierBadge from '@/components/TierBadge'
import { drawStore, purchaseIdOf } from '@/stores/draw'
import { t } from '@/stores/locale'
import { AudioPlayer } from '@/utils/audio'
import { tr, a11yImage, designLabel, a11yControl, A11Y_HIDDEN } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { redirect } from '@/utils/navigation'
import { isKujiDesign, isLastOne } from '@/utils/kujiTier'
import openSound from './open.wav'
import { OPENING_MS } from './timing'
import { prefersReducedMotion } from './motion'
import './index.scss'

type Stage = 'closed' | 'opening' | 'open'

/**
 * The opening: one box after another, tap to open, with sound; skip goes straight to the results. A
 * 一番赏 draw opens ticket after ticket, each named by its number and tier; the Last One (won with the
 * set's final ticket) comes last, on a stage of its own.
 */
function OpenChestPage () {
  const purchaseId = purchaseIdOf(useRouter().params)
  useEffect(() => { if (purchaseId !== null) void drawStore.show(purchaseId) }, [purchaseId])
  const draw = drawStore.showing(purchaseId)
  // the Last One last: the moment the draw builds up to
  const prizes = [...(draw?.prizes ?? [])].sort((a, b) => Number(isLastOne(a.design.tier)) - Number(isLastOne(b.design.tier)))
  const [index, setIndex] = useState(0)
  const [stage, setStage] = useState<Stage>('closed')
  const [muted, setMuted] = useState(false)
  const player = useRef<AudioPlayer | null>(null)
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)

  useEffect(() => {
    player.current = new AudioPlayer({ src: openSound, volume: 0.8 })
    return () => {
      player.current?.destroy()
      if (timer.current) clearTimeout(timer.current)
    }
  }, [])

  const toResults = () => { void redirect(draw ? `/pages/prize_show/index?purchaseId=${draw.purchaseId}` : '/pages/prize_show/index') }

  if (purchaseId !== null && !draw && !drawStore.failure) return <PageShell className='chest-page'><Text className='chest-loading'>{t('feedback.loading')}</Text></PageShell>
  if (prizes.length === 0) {
    return <PageShell className='chest-page'><EmptyState icon='🎁' text={drawStore.failure ?? t('prize.none')} action={{ label: t('titles.home'), onClick: () => { void redirect('/pages/home/index') } }} /></PageShell>
  }

  const prize = prizes[index]
  const last = index === prizes.length - 1
  const kuji = isKujiDesign(prize.design)
  const lastOne = isLastOne(prize.design.tier)
  const tapToOpen = kuji ? t('kuji.tapToOpen') : t('chest.tapToOpen')
  const where = kuji ? t('kuji.ticket', { n: prize.slot }) : t('chest.slot', { slot: prize.slot })

  const open = () => {
    if (stage !== 'closed') return
    setStage('opening')
    if (!muted) player.current?.play().catch(() => undefined)
    // less motion asked for: no shaking wait, the box opens on the tap (a still frame, app.scss)
    if (prefersReducedMotion()) { setStage('open'); return }
    timer.current = setTimeout(() => setStage('open'), OPENING_MS)
  }
  const next = () => {
    if (last) { toResults(); return }
    setIndex(index + 1)
    setStage('closed')
  }

  return (
    <PageShell className='chest-page'>
      <View className={`chest-stage ${lastOne ? 'chest-stage--last-one' : ''}`}>
        <View className='chest-top'>
          <Text className='chest-count'>{index + 1} / {prizes.length}</Text>
          <View className='chest-sound' {...a11yControl(t(muted ? 'a11y.soundOn' : 'a11y.soundOff'))} onClick={() => setMuted(!muted)}>{muted ? '🔇' : '🔊'}</View>
          <View className='chest-skip' {...a11yControl()} onClick={toResults}>{t('chest.skip')}</View>
        </View>

        {/* the Last One: said before it opens, and again on it */}
        {lastOne && (
          <View className='last-one-banner'>
            <Text className='last-one-banner__badge'>{t('kuji.lastOneBadge')}</Text>
            <Text className='last-one-banner__title'>{t('kuji.lastOneTitle')}</Text>
            <Text className='last-one-banner__text'>{t('kuji.lastOneText')}</Text>
          </View>
        )}
        {stage !== 'open'
          ? (
            <View className={`chest chest--${stage}`} {...a11yControl(tapToOpen)} onClick={open}>
              <Text className='chest__glow' {...A11Y_HIDDEN} />
              <Text className='chest__icon' {...A11Y_HIDDEN}>{lastOne ? '👑' : kuji ? '🎫' : '🎁'}</Text>
            </View>
            )
          : (
            <View className={`reveal reveal--${prize.design.rarity} ${lastOne ? 'reveal--last-one' : ''}`}>
              <Text className='reveal__rays' />
              <Image className='reveal__img' src={mediaUrl(prize.design.image, 300)} mode='aspectFit' {...a11yImage(designLabel(prize.design))} />
              <Text className='reveal__name'>{tr(prize.design.name)}</Text>
              {kuji && prize.design.tier ? <TierBadge tier={prize.design.tier} className='reveal__tier' /> : <RarityBadge rarity={prize.design.rarity} />}
            </View>
            )}

        {/* the Last One's banner names it already */}
        {!(lastOne && stage === 'open') && <Text className='chest-hint'>{stage === 'closed' ? tapToOpen : stage === 'opening' ? t('chest.opening') : where}</Text>}
        {stage === 'open' && (
          <View className='btn btn--primary chest-next' {...a11yControl()} onClick={next}>{last ? t('chest.seeAll') : t('chest.next')}</View>
        )}
      </View>
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(OpenChestPage))
