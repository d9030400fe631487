/**
 * Home's search box (with suggestions as the shopper types), sorts and filters (issue 27 item 2). The
 * page owns the state (it is in the page's query params); this draws it and reports changes.
 */
import { useEffect, useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { lightObserver } from '@/stores/lightObserver'
import type { SeriesSort, ThemeTag } from '~types/shop'
import { shopApi } from '@/services/shop'
import { t } from '@/stores/locale'
import { SUGGEST_DEBOUNCE_MS } from '@/constants'
import { a11yControl, tr, A11Y_HIDDEN } from '@/utils/format'
import { useRemote } from '@/utils/useRemote'
import { BAND_LABELS, EMPTY_FINDER, HIDDEN_LABELS, PRICE_BAND_KEYS, SORT_LABELS, filterCount, type FinderState, type HiddenChoice } from './finder'

/** The value after it stopped changing for `ms`. */
function useSettled<T> (value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

function Chip ({ on, label, className = '', onClick }: { on: boolean; label: string; className?: string; onClick: () => void }) {
  return (
    <Text className={`finder-chip ${on ? 'finder-chip--on' : ''} ${className}`} {...a11yControl(undefined, 'button')}
      aria-pressed={on ? 'true' : 'false'} onClick={onClick}>{label}</Text>
  )
}

export interface SearchBoxProps {
  query: string
  onSearch: (q: string) => void
}

/** The search field: suggestions while the typed text is not yet searched for. */
export const SearchBox = lightObserver(function SearchBox ({ query, onSearch }: SearchBoxProps) {
  const [typed, setTyped] = useState(query)
  // a search set from elsewhere (cleared in an empty state, a suggestion) shows in the field
  useEffect(() => { setTyped(query) }, [query])
  const pending = typed.trim() !== query && typed.trim() !== ''
  const settled = useSettled(pending ? typed.trim() : '', SUGGEST_DEBOUNCE_MS)
  const suggest = useRemote(() => settled ? shopApi.seriesSuggest(settled) : Promise.resolve([]), [settled])
  const suggestions = pending && settled ? suggest.data ?? [] : []
  const submit = (text: string) => onSearch(text.trim())

  return (
    <View className='finder-search'>
      <View className='finder-search__bar'>
        <Text className='finder-search__icon' {...A11Y_HIDDEN}>🔍</Text>
        <Input className='finder-search__input' value={typed} placeholder={t('finder.placeholder')} aria-label={t('finder.label')}
          confirmType='search' maxlength={60} onInput={e => setTyped(e.detail.value)} onConfirm={e => submit(e.detail.value)} />
        {typed !== '' && (
          <Text className='finder-search__clear' {...a11yControl(t('finder.clear'))} onClick={() => { setTyped(''); onSearch('') }}>✕</Text>
        )}
        <Text className='finder-search__go' {...a11yControl()} onClick={() => submit(typed)}>{t('finder.search')}</Text>
      </View>
      {suggestions.length > 0 && (
        <View className='finder-suggestions' role='group' aria-label={t('finder.suggestions')}>
          {suggestions.map(s => (
            <Text key={s.id} className='finder-suggestion' {...a11yControl(undefined, 'button')} onClick={() => { setTyped(tr(s.title)); onSearch(tr(s.title)) }}>
              {tr(s.title)}
            </Text>
          ))}
        </View>
      )}
    </View>
  )
})

/** A change of the state: the fields that change, or how they follow from the state as it is then. */
export type FinderPatch = Partial<FinderState> | ((s: FinderState) => Partial<FinderState>)

export interface FinderControlsProps {
  state: FinderState
  tags: ThemeTag[]
  /** Applied to the latest state (two taps before a render both count). */
  onChange: (patch: FinderPatch) => void
}

/** Sorts, and the filters behind a button (open while any is set). */
export const FinderControls = lightObserver(function FinderControls ({ state, tags, onChange }: FinderControlsProps) {
  const count = filterCount(state)
  const [open, setOpen] = useState(count > 0)
  const set = (patch: FinderPatch) => onChange(patch)
  const toggleTag = (id: number) => set(s => ({ tags: s.tags.includes(id) ? s.tags.filter(x => x !== id) : [...s.tags, id] }))

  return (
    <View className='finder-controls'>
      <View className='finder-row finder-sorts' role='group' aria-label={t('finder.sortLabel')}>
        <Chip on={state.sort === null} label={t('finder.sortDefault')} className='sort-default' onClick={() => set({ sort: null })} />
        {(Object.keys(SORT_LABELS) as SeriesSort[]).map(s => (
          <Chip key={s} on={state.sort === s} label={t(SORT_LABELS[s])} className={`sort-${s}`} onClick={() => set({ sort: s })} />
        ))}
      </View>
      <View className='finder-row'>
        <Text className={`finder-toggle ${open ? 'finder-toggle--open' : ''}`} {...a11yControl()} aria-expanded={open ? 'true' : 'false'}
          onClick={() => setOpen(!open)}>
          {count ? t('finder.filtersCount', { n: count }) : t('finder.filters')}<Text {...A11Y_HIDDEN}>{open ? ' ▴' : ' ▾'}</Text>
        </Text>
        {(count > 0 || state.q) && <Text className='finder-clear-all' {...a11yControl()} onClick={() => onChange(EMPTY_FINDER)}>{t('finder.clearAll')}</Text>}
      </View>
      {open && (
        <View className='finder-panel'>
          <Text className='finder-panel__title'>{t('finder.price')}</Text>
          <View className='finder-row' role='group' aria-label={t('finder.price')}>
            {PRICE_BAND_KEYS.map(b => (
              <Chip key={b} on={state.price === b} label={t(BAND_LABELS[b])} className={`price-${b}`} onClick={() => set(s => ({ price: s.price === b ? null : b }))} />
            ))}
          </View>
          <Text className='finder-panel__title'>{t('finder.rarity')}</Text>
          <View className='finder-row' role='group' aria-label={t('finder.rarity')}>
            <Chip on={state.rarity === 'rare'} label={t('finder.hasRare')} className='rarity-rare' onClick={() => set(s => ({ rarity: s.rarity ? null : 'rare' }))} />
            {(['yes', 'no'] as HiddenChoice[]).map(h => (
              <Chip key={h} on={state.hidden === h} label={t(HIDDEN_LABELS[h])} className={`hidden-${h}`} onClick={() => set(s => ({ hidden: s.hidden === h ? null : h }))} />
            ))}
          </View>
          {tags.length > 0 && <>
            <Text className='finder-panel__title'>{t('finder.themes')}</Text>
            <View className='finder-row' role='group' aria-label={t('finder.themes')}>
              {tags.map(tag => (
                <Chip key={tag.id} on={state.tags.includes(tag.id)} label={tr(tag.name)} className={`tag-${tag.id}`} onClick={() => toggleTag(tag.id)} />
              ))}
            </View>
          </>}
        </View>
      )}
    </View>
  )
})

/** Nothing found: each condition set, to take away with a tap, and "clear all". */
export const FinderEmpty = lightObserver(function FinderEmpty ({ state, tags, onChange }: FinderControlsProps) {
  const drops: Array<{ key: string; what: string; next: Partial<FinderState> }> = []
  if (state.q) drops.push({ key: 'q', what: t('finder.dropQuery', { q: state.q }), next: { q: '' } })
  if (state.price) drops.push({ key: 'price', what: t('finder.dropPrice', { band: t(BAND_LABELS[state.price]) }), next: { price: null } })
  if (state.rarity) drops.push({ key: 'rarity', what: t('finder.dropRarity'), next: { rarity: null } })
  if (state.hidden) drops.push({ key: 'hidden', what: t('finder.dropHidden', { choice: t(HIDDEN_LABELS[state.hidden]) }), next: { hidden: null } })
  if (state.tags.length) {
    const names = state.tags.map(id => tags.find(x => x.id === id)).filter(x => !!x).map(x => tr(x!.name)).join(t('finder.separator'))
    drops.push({ key: 'tags', what: t('finder.dropTags', { names }), next: { tags: [] } })
  }
  return (
    <View className='finder-empty'>
      <Text className='finder-empty__icon' {...A11Y_HIDDEN}>🔎</Text>
      <Text className='finder-empty__title'>{t('finder.emptyTitle')}</Text>
      {drops.length > 1 && <Text className='finder-empty__hint'>{t('finder.emptyHint')}</Text>}
      <View className='finder-empty__drops'>
        {drops.map(d => (
          <Text key={d.key} className={`finder-drop finder-drop-${d.key}`} {...a11yControl()} onClick={() => onChange(d.next)}>
            {t('finder.drop', { what: d.what })}
          </Text>
        ))}
        {drops.length > 1 && <Text className='finder-drop finder-drop-all' {...a11yControl()} onClick={() => onChange(EMPTY_FINDER)}>{t('finder.clearAll')}</Text>}
      </View>
    </View>
  )
})
