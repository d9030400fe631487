// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import type { CombineResult } from '~types/combine'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import ActionBar from '@/components/ActionBar'
import RarityBadge from '@/components/RarityBadge'
import { combineApi } from '@/services/combine'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { tr, a11yImage, designLabel } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { useRemote } from '@/utils/useRemote'
import { navigate, redirect } from '@/utils/navigation'
import { Check, checkCombine } from './check'
import './index.scss'

import { reveal as scrollToResult } from '@/utils/reveal'

/** The outcome of a combine with its seeds, nonce and pool, checked on the device once the seed is revealed. */
function CombineResultPage () {
  const { params } = useRouter()
  const combineId = Number(params.combineId)
  const valid = Number.isInteger(combineId) && combineId > 0
  const answer = useRemote<CombineResult>(() => combineApi.detail(combineId), [], { loadOnMount: false, onError: e => toast({ message: errorMessage(e) }) })
  useDidShow(() => { if (valid) void answer.reload() })
  const result = answer.data ?? null
  const setResult = (r: CombineResult) => answer.setData(() => r)
  const missing = !valid || answer.failed
  const [check, setCheck] = useState<Check | null>(null)

  if (missing) return <PageShell><EmptyState icon='🔍' text={t('prize.notFound')} action={{ label: t('combine.back'), onClick: () => { void redirect('/pagesA/combine/index') } }} /></PageShell>
  if (!result) return <PageShell><Text className='text-faint'>{t('feedback.loading')}</Text></PageShell>

  const { output: o, proof: p } = result
  const total = p.weights.reduce((s, w) => s + w, 0)
  const reveal = async () => {
    try {
      await loading.wrap(combineApi.rotate())
      const fresh = await combineApi.detail(combineId)
      setResult(fresh)
      setCheck(checkCombine(fresh))
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  return (
    <PageShell className='combine-result-page'>
      <View className={`combine-result combine-result--${o.design.rarity}`} onClick={() => navigate(`/pagesA/prize_detail/index?prizeId=${o.prizeId}`)}>
        <Image className='combine-result__img' src={mediaUrl(o.design.image, 240)} mode='aspectFit' {...a11yImage(designLabel(o.design))} />
        <Text className='combine-result__title'>{tr(o.design.name)}</Text>
        <RarityBadge rarity={o.design.rarity} />
        <Text className='combine-result__sub'>{tr(o.seriesTitle)} · {t('combine.inputs', { n: result.inputPrizeIds.length })}</Text>
      </View>
      <Section title={t('combine.seed')} className='combine-proof'>
        <Text className='seeds__label'>{t('combine.serverSeedHash')}</Text>
        <Text className='seeds__mono'>{p.serverSeedHash}</Text>
        <Text className='seeds__label'>{t('combine.clientSeed')}</Text>
        <Text className='seeds__mono proof-client-seed'>{p.clientSeed}</Text>
        <Text className='seeds__label'>nonce: {p.nonce}</Text>
        <Text className='seeds__label proof-drawn'>{t('combine.drawn', { value: p.value, total, round: p.round + 1, word: p.word + 1, index: p.index + 1 })}</Text>
        {p.serverSeed
          ? (
            <>
              <Text className='seeds__label'>{t('combine.serverSeed')}</Text>
              <Text className='seeds__mono proof-server-seed'>{p.serverSeed}</Text>
              <View className='btn btn--ghost combine-check' onClick={() => { setCheck(checkCombine(result)); scrollToResult('.combine-check-result') }}>{t('combine.check')}</View>
            </>
            )
          : (
            <>
              <Text className='proof-pending'>{t('combine.notRevealed')}</Text>
              <View className='btn btn--ghost combine-reveal' onClick={reveal}>{t('combine.rotate')}</View>
            </>
            )}
        {check && (
          <View className={`combine-check-result ${check.hashOk && check.drawOk ? 'combine-check-result--ok' : 'combine-check-result--bad'}`}>
            <Text>{check.hashOk ? t('combine.hashOk') : t('combine.hashBad')}</Text>
            <Text>{check.drawOk ? t('combine.checkOk') : t('combine.checkBad')}</Text>
          </View>
        )}
      </Section>
      <ActionBar>
        <View className='btn btn--primary combine-again' onClick={() => redirect('/pagesA/combine/index')}>{t('combine.back')}</View>
      </ActionBar>
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(CombineResultPage))
