// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text, Image, Input, ScrollView } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import type { FairSeedView, Recipe } from '~types/combine'
import type { PrizeItem } from '~types/shop'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import ActionBar from '@/components/ActionBar'
import RarityBadge from '@/components/RarityBadge'
import { combineApi } from '@/services/combine'
import { shopApi } from '@/services/shop'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatPpm, tr, decorativeImage } from '@/utils/format'
import { mediaUrl } from '@/utils/media'
import { navigate, redirect } from '@/utils/navigation'
import { randomString } from '@/utils/random'
import { useRemote } from '@/utils/useRemote'
import { fits } from './fits'
import './index.scss'

const CLIENT_SEED = /^[A-Za-z0-9_-]{1,64}$/
/** Warehouse prizes read to find materials (the newest first). */
const MATERIALS_MAX = 100

/** Combine: a recipe (its pool, odds and guarantee shown first), the items for it, the seeds, then the draw. */
function CombinePage () {
  const { params } = useRouter()
  const [chosenId, setRecipeId] = useState<number | null>(params.recipeId ? Number(params.recipeId) : null)
  const [picked, setPicked] = useState<number[]>([])
  const [clientSeed, setClientSeed] = useState('')
  const [key, setKey] = useState(() => randomString(24))
  const onError = (e: unknown) => toast({ message: errorMessage(e) })

  // each time the page shows: the recipes, then (logged in) the seeds and the warehouse prizes to combine
  const recipeList = useRemote<Recipe[]>(() => combineApi.recipes(), [], {
    loadOnMount: false, onError, onSuccess: () => { if (sessionStore.loggedIn) void mine.reload() }
  })
  const mine = useRemote(async () => {
    const [seed, warehouse] = await Promise.all([combineApi.seed(), shopApi.prizeList({ page: 1, size: MATERIALS_MAX, status: 'warehouse' })])
    return { seed, items: warehouse.list }
  }, [], { loadOnMount: false, onError, onSuccess: m => setClientSeed(m.seed.clientSeed) })
  useDidShow(() => { void recipeList.reload() })
  const recipes = recipeList.data ?? null
  // the recipe asked for while it is offered, else the first
  const recipeId = recipes && !(chosenId && recipes.some(r => r.id === chosenId)) ? recipes[0]?.id ?? null : chosenId
  const items: PrizeItem[] = mine.data?.items ?? []
  const seed: FairSeedView | null = mine.data?.seed ?? null
  const setSeed = (next: FairSeedView) => mine.setData(m => m && { ...m, seed: next })

  if (!sessionStore.loggedIn) {
    return (
      <PageShell className='combine-page'>
        <EmptyState icon='🔒' text={t('collection.loginFirst')} action={{ label: t('profile.loginNow'), onClick: () => { void redirect('/pages/login/index') } }} />
      </PageShell>
    )
  }
  if (recipes && !recipes.length) return <PageShell className='combine-page'><EmptyState icon='⚗️' text={t('combine.noRecipes')} /></PageShell>

  const recipe = recipes?.find(r => r.id === recipeId) ?? null
  const candidates = recipe ? items.filter(p => fits(recipe, p)) : []
  const pickedItems = candidates.filter(p => picked.includes(p.prizeId))
  const sameDesignOk = !recipe || recipe.input.kind !== 'same_design' || new Set(pickedItems.map(p => p.design.id)).size <= 1
  const ready = !!recipe && pickedItems.length === recipe.input.count && sameDesignOk

  const choose = (id: number) => { setRecipeId(id); setPicked([]) }
  const toggle = (p: PrizeItem) => {
    if (!recipe) return
    if (picked.includes(p.prizeId)) { setPicked(picked.filter(x => x !== p.prizeId)); return }
    if (recipe.input.kind === 'same_design' && pickedItems.length && pickedItems[0].design.id !== p.design.id) { setPicked([p.prizeId]); return }
    if (pickedItems.length >= recipe.input.count) return
    setPicked([...picked, p.prizeId])
  }
  const saveSeed = async () => {
    if (!CLIENT_SEED.test(clientSeed)) { toast({ message: t('combine.seedInvalid') }); return }
    try {
      setSeed(await combineApi.setClientSeed(clientSeed))
      toast({ message: t('combine.seedSaved'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const rotate = async () => {
    try {
      const r = await loading.wrap(combineApi.rotate())
      setSeed(r.current)
      toast({ message: t('combine.rotated'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const start = async () => {
    if (!recipe || !ready) return
    if (!await dialog({ message: t('combine.confirm', { n: recipe.input.count }), confirmText: t('combine.start') })) return
    try {
      const result = await loading.wrap(combineApi.combine({ recipeId: recipe.id, prizeIds: pickedItems.map(p => p.prizeId), idempotencyKey: key }))
      setKey(randomString(24))
      setPicked([])
      void navigate(`/pagesA/combine_result/index?combineId=${result.combineId}`)
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  return (
    <PageShell className='combine-page'>
      <Section title={t('combine.recipe')}>
        <ScrollView scrollX className='recipes' enableFlex>
          {recipes?.map(r => (
            <View key={r.id} className={`recipe recipe-${r.id} ${r.id === recipeId ? 'recipe--on' : ''}`} onClick={() => choose(r.id)}>
              <Text className='recipe__name'>{tr(r.name)}</Text>
              <Text className='recipe__series'>{tr(r.seriesTitle)}</Text>
            </View>
          ))}
        </ScrollView>
        {recipe && (
          <View className='recipe-rule'>
            <Text>{t('combine.needs', { count: recipe.input.count, what: recipe.input.kind === 'same_design' ? t('combine.sameDesign') : t(`rarity.${recipe.input.rarity ?? 'regular'}`) })}</Text>
            <Text className='recipe-rule__guarantee'>{t('combine.guarantee', { rarity: t(`rarity.${recipe.guaranteedRarity}`) })}</Text>
          </View>
        )}
      </Section>
      {recipe && (
        <Section title={t('combine.pool')} className='pool'>
          {recipe.pool.map(e => (
            <View key={e.design.id} className='pool-row'>
              <Image className='pool-row__img' src={mediaUrl(e.design.image, 56)} mode='aspectFit' lazyLoad {...decorativeImage()} />
              <Text className='pool-row__name'>{tr(e.design.name)}</Text>
              <RarityBadge rarity={e.design.rarity} />
              <Text className='pool-row__odds'>{formatPpm(e.oddsPpm)}</Text>
            </View>
          ))}
        </Section>
      )}
      {recipe && (
        <Section title={`${t('combine.pick')} · ${t('combine.picked', { n: pickedItems.length, count: recipe.input.count })}`} className='materials'>
          {candidates.length === 0
            ? <EmptyState icon='🧩' text={t('combine.noItems')} action={{ label: t('collection.goShop'), onClick: () => { void redirect('/pagesA/home/index') } }} />
            : (
              <View className='materials__grid'>
                {candidates.map(p => (
                  <View key={p.prizeId} className={`material material-${p.prizeId} ${picked.includes(p.prizeId) ? 'material--on' : ''}`} onClick={() => toggle(p)}>
                    <Image className='material__img' src={mediaUrl(p.design.image, 88)} mode='aspectFit' lazyLoad {...decorativeImage()} />
                    <Text className='material__name'>{tr(p.design.name)}</Text>
                  </View>
                ))}
              </View>
              )}
        </Section>
      )}
      {seed && (
        <Section title={t('combine.seed')} className='seeds'>
          <Text className='seeds__label'>{t('combine.serverSeedHash')}</Text>
          <Text className='seeds__mono seed-hash'>{seed.serverSeedHash}</Text>
          <Text className='seeds__label'>{t('combine.clientSeed')}</Text>
          <View className='seeds__row'>
            <Input className='seeds__input client-seed' aria-label={t('combine.clientSeed')} maxlength={64} value={clientSeed} onInput={e => setClientSeed(e.detail.value)} />
            <View className='btn btn--ghost seeds__save' onClick={saveSeed}>{t('combine.saveSeed')}</View>
          </View>
          <Text className='seeds__label'>{t('combine.nonce')}: {seed.nonce}</Text>
          <Text className='seeds__rotate' onClick={rotate}>{t('combine.rotate')}</Text>
        </Section>
      )}
      <ActionBar>
        <View className={`btn btn--primary combine-start ${ready ? '' : 'btn--disabled'}`} onClick={start}>{t('combine.start')}</View>
      </ActionBar>
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(CombinePage))
