import { Text } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import { tierName, tierTone } from '@/utils/kujiTier'
import './index.scss'

/** A 一番赏 tier in its colour: "A赏" / "Prize A", the Last One "最终赏" / "Last One" in gold. */
function TierBadge ({ tier, className }: { tier: string; className?: string }) {
  return <Text className={`tier-badge tier-badge--${tierTone(tier)} ${className ?? ''}`}>{tierName(tier)}</Text>
}

export default lightObserver(TierBadge)
