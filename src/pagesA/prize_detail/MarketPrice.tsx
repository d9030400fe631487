import { View, Text } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import Section from '@/components/Section'
import { marketPrice, type MarketPrice as Market } from '@/services/bijia'
import { ApiError } from '@/services/errors'
import { localeStore, t } from '@/stores/locale'
import { capabilitiesStore } from '@/stores/capabilities'
import { formatCents, formatTime } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'
import { versusMedian } from './marketPrice'

type State =
  | { kind: 'loading' }
  | { kind: 'off' }
  | { kind: 'none' }
  | { kind: 'failed'; message: string }
  | { kind: 'ready'; market: Market }

/** The server has no price comparison: 422 with data {provider: 'jdUnion'} and no provider status. */
const notConfigured = (e: unknown) => e instanceof ApiError && e.code === 422 &&
  (e.data as { provider?: string; status?: string } | null)?.provider === 'jdUnion' && !(e.data as { status?: string }).status

interface Props {
  /** What the market is asked about (the design's Chinese name). */
  keyword: string
  referenceCents: number
}

/**
 * The market price next to the design's reference value (issue 11, bijia): the lowest and median offer
 * of the best-matching product on JD, how many offers, the source and when it was asked. Shown only
 * when the shop has price comparison (capabilitiesStore); a shopper never reads why it is missing.
 */
function MarketPrice ({ keyword, referenceCents }: Props) {
  const market = useRemote(() => marketPrice(keyword), [keyword], {
    // the shop lost its provider since the page asked: the section goes (the page shows the reference value)
    onError: e => { if (notConfigured(e)) capabilitiesStore.turnOff('priceCompare') }
  })
  // each request (a retry too) shows "loading" until it answers
  const state: State = market.loading
    ? { kind: 'loading' }
    : market.failed
      ? notConfigured(market.error)
        ? { kind: 'off' }
        : { kind: 'failed', message: market.error instanceof ApiError ? market.error.message : t('market.failed') }
      : market.data ? { kind: 'ready', market: market.data } : { kind: 'none' }

  return (
    <Section title={t('market.title')} className={`market market--${state.kind}`}>
      <View className='kv-row'><Text className='kv-row__k'>{t('prize.value')}</Text><Text className='kv-row__v market-reference'>{formatCents(referenceCents)}</Text></View>
      {state.kind === 'loading' && <Text className='market__note'>{t('market.loading')}</Text>}
      {state.kind === 'off' && <Text className='market__note market-off'>{t('market.off')}</Text>}
      {state.kind === 'none' && <Text className='market__note market-none'>{t('market.none')}</Text>}
      {state.kind === 'failed' && (
        <View className='market__failed'>
          <Text className='market__note market-failed'>{state.message}</Text>
          <View className='btn btn--ghost market-retry' onClick={market.retry}>{t('market.retry')}</View>
        </View>
      )}
      {state.kind === 'ready' && <MarketFigures market={state.market} referenceCents={referenceCents} />}
    </Section>
  )
}

function MarketFigures ({ market, referenceCents }: { market: Market; referenceCents: number }) {
  const vs = versusMedian(referenceCents, market.medianCents)
  // the market's shop and product names are Chinese (JD): shown in Chinese only; in English an offer is
  // named by its rank
  const zh = localeStore.locale === 'zh'
  return (
    <>
      <View className='kv-row'><Text className='kv-row__k'>{t('market.lowest')}</Text><Text className='kv-row__v market-lowest'>{formatCents(market.lowestCents)}</Text></View>
      <View className='kv-row'><Text className='kv-row__k'>{t('market.median')}</Text><Text className='kv-row__v market-median'>{formatCents(market.medianCents)}</Text></View>
      <View className='kv-row'><Text className='kv-row__k'>{t('market.offers')}</Text><Text className='kv-row__v market-count'>{t('market.offersCount', { n: market.count })}</Text></View>
      <Text className={`market__verdict market__verdict--${vs.dir}`}>
        {vs.dir === 'same' ? t('market.same') : t('market.vsMedian', { pct: vs.pct, dir: t(`market.${vs.dir}`) })}
      </Text>
      <Text className='market__label'>{t('market.cheapest')}</Text>
      {market.offers.slice(0, 3).map((o, i) => (
        <View key={o.skuId} className='market__offer'>
          <Text className='market__shop'>{zh ? o.shop || o.title : t('market.offerN', { n: i + 1 })}</Text>
          <Text className='market__price'>{formatCents(o.priceCents)}</Text>
        </View>
      ))}
      {zh && <View className='kv-row market__meta'><Text className='kv-row__k'>{t('market.product')}</Text><Text className='kv-row__v market-product'>{market.product}</Text></View>}
      <View className='kv-row market__meta'>
        <Text className='kv-row__k'>{t('market.source')}</Text>
        <Text className='kv-row__v market-source'>{market.source === 'jd' ? t('market.sourceJd') : market.source} · {t('market.asOf')} {formatTime(market.asOf)}</Text>
      </View>
    </>
  )
}

export default observer(MarketPrice)
