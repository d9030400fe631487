import { Text } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import type { Rarity } from '~types/shop'
import { t } from '@/stores/locale'
import './index.scss'

/** regular / rare / hidden, in the rarity's colour. */
function RarityBadge ({ rarity, className }: { rarity: Rarity; className?: string }) {
  return <Text className={`rarity rarity--${rarity} ${className ?? ''}`}>{t(`rarity.${rarity}`)}</Text>
}

export default lightObserver(RarityBadge)
