import { useEffect, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react-lite'
import type { OperatorRecipe } from '~types/combine'
import Section from '@/components/Section'
import { recipeAdminApi } from '@/services/combine'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { formatPpm, tr } from '@/utils/format'

/** The combine recipes every series publishes: their rule and pool, published or withdrawn (audited). */
function RecipesTab () {
  const [recipes, setRecipes] = useState<OperatorRecipe[] | null>(null)
  const load = () => recipeAdminApi.list().then(setRecipes, e => toast({ message: errorMessage(e) }))
  useEffect(() => { void load() }, [])

  const flip = async (r: OperatorRecipe) => {
    try {
      await loading.wrap(recipeAdminApi.save({
        id: r.id, seriesId: r.seriesId, name: r.name, inputKind: r.input.kind, inputRarity: r.input.rarity, inputCount: r.input.count,
        pool: r.pool.map(p => ({ designId: p.design.id, weight: p.weight })), status: r.status === 'on' ? 'off' : 'on'
      }))
      toast({ message: t('opRecipes.saved'), level: 'success' })
      await load()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  if (!recipes) return <Text className='editor-hint'>{t('feedback.loading')}</Text>
  return (
    <Section title={t('opRecipes.title')} className='op-recipes'>
      {recipes.map(r => (
        <View key={r.id} className={`op-recipe op-recipe-${r.id}`}>
          <View className='op-recipe__head'>
            <Text className='op-recipe__name'>{tr(r.name)} · {tr(r.seriesTitle)}</Text>
            <Text className={`op-recipe__status op-recipe__status--${r.status}`}>{t(r.status === 'on' ? 'opRecipes.on' : 'opRecipes.off')}</Text>
          </View>
          <Text className='editor-hint'>
            {t('combine.needs', { count: r.input.count, what: r.input.kind === 'same_design' ? t('combine.sameDesign') : t(`rarity.${r.input.rarity ?? 'regular'}`) })}
            {' · '}{t('combine.guarantee', { rarity: t(`rarity.${r.guaranteedRarity}`) })}
          </Text>
          <Text className='editor-hint'>{r.pool.map(p => `${tr(p.design.name)} ${formatPpm(p.oddsPpm)}`).join(' / ')}</Text>
          <View className='btn btn--ghost op-recipe__flip' onClick={() => { void flip(r) }}>{t(r.status === 'on' ? 'opRecipes.withdraw' : 'opRecipes.publish')}</View>
        </View>
      ))}
    </Section>
  )
}

export default observer(RecipesTab)
