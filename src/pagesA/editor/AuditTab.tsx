import { useState } from 'react'
import { View, Text, ScrollView, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import type { AuditActor, AuditEntryView } from '~types/operators'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { operatorRoleApi } from '@/services/operators'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { toast } from '@/utils/feedback'
import { formatTime, decorativeImage } from '@/utils/format'
import { actionLabel, auditDiff, designList, entityLabel, fieldLabel, formatAuditValue, isImageField, type DiffRow } from './auditDiff'
import { mediaUrl } from '@/utils/media'
import { usePagedList } from '@/utils/useRemote'
import './AuditTab.scss'

const PAGE = 20

/** What an entry says besides before and after (the account a role change was about, a withdrawal's amount). */
function contextLine (e: AuditEntryView): string {
  return Object.entries(e.context)
    // scalars, and lists of them (the cases a retirement revealed)
    .filter(([, v]) => v !== null && v !== undefined && (typeof v !== 'object' || (Array.isArray(v) && v.length > 0 && v.every(x => typeof x !== 'object'))))
    .map(([k, v]) => `${fieldLabel(k)}: ${formatAuditValue(k, v)}`)
    .join(' · ')
}

/** One side of a changed field: an image as a thumbnail, a series' designs as a list, anything else as text. */
function Value ({ r, side }: { r: DiffRow; side: 'before' | 'after' }) {
  const value = r[side]
  const cls = `audit-diff__${side}`
  if (isImageField(r.path) && typeof value === 'string' && value) {
    return <Image className={`audit-thumb ${cls}--image`} src={mediaUrl(value, 72)} mode='aspectFill' lazyLoad {...decorativeImage()} />
  }
  const designs = designList(r.path, value)
  if (designs) {
    // entries written before designs carried their images have none: no empty frames then
    const withImages = designs.some(d => d.image)
    return (
      <View className={`audit-designs ${cls}--designs`}>
        {designs.map((d, i) => (
          <View key={i} className='audit-design'>
            {d.image ? <Image className='audit-thumb' src={mediaUrl(d.image, 72)} mode='aspectFill' lazyLoad {...decorativeImage()} /> : withImages && <View className='audit-thumb audit-thumb--none' />}
            <View className='audit-design__text'>
              <Text className='audit-design__name'>{d.name}{d.rarity ? ` · ${d.rarity}` : ''}</Text>
              {d.values && <Text className='audit-design__values'>{d.values}</Text>}
            </View>
          </View>
        ))}
      </View>
    )
  }
  return <Text className={cls}>{formatAuditValue(r.path, value)}</Text>
}

const Entry = observer(function Entry ({ e, onActor }: { e: AuditEntryView; onActor: (a: AuditActor) => void }) {
  const rows = auditDiff(e.before, e.after)
  const created = e.before === null && e.after !== null
  const removed = e.after === null && e.before !== null
  const context = contextLine(e)
  // an entry that changed nothing says nothing (the server no longer writes them; older ones are skipped)
  if (rows.length === 0 && !created && !removed) return null
  return (
    <View className={`audit-entry audit-entry-${e.id}`}>
      <View className='audit-entry__head'>
        <Text className='audit-entry__action'>{actionLabel(e.action)}</Text>
        <Text className='audit-entry__entity'>{e.entityId === null ? entityLabel(e.entity) : t('audit.entityRef', { entity: entityLabel(e.entity), id: e.entityId })}</Text>
      </View>
      <View className='audit-entry__meta'>
        {e.actor
          ? <Text className='audit-entry__actor' onClick={() => onActor(e.actor!)}>{e.actor.name}</Text>
          : <Text className='audit-entry__actor audit-entry__actor--system'>{t('audit.system')}</Text>}
        <Text> · {formatTime(e.at)}</Text>
      </View>
      {context && <Text className='audit-entry__context'>{context}</Text>}
      {(created || removed) && <Text className={`audit-entry__tag audit-entry__tag--${created ? 'created' : 'removed'}`}>{t(created ? 'audit.created' : 'audit.removed')}</Text>}
      {rows.length > 0 && (
        <View className='audit-diff'>
          {rows.map(r => (
            <View key={r.path} className={`audit-diff__row audit-diff__row--${r.kind} ${designList(r.path, r.after ?? r.before) ? 'audit-diff__row--list' : ''}`}>
              <Text className='audit-diff__field'>{r.label ?? fieldLabel(r.path)}</Text>
              <View className='audit-diff__values'>
                {r.kind !== 'added' && <Value r={r} side='before' />}
                {r.kind === 'changed' && <Text className='audit-diff__arrow'> → </Text>}
                {r.kind !== 'removed' && <Value r={r} side='after' />}
              </View>
            </View>
          ))}
        </View>
      )}
    </View>
  )
})

/** The audit log: every operator change, newest first, who and when, and what changed (before → after). */
function AuditTab () {
  const [entity, setEntity] = useState<string | null>(null)
  const [actor, setActor] = useState<AuditActor | null>(null)
  const audit = usePagedList(
    (page, size) => operatorRoleApi.audit({ page, size, ...(entity ? { entity } : {}), ...(actor ? { actorId: actor.id } : {}) }),
    { pageSize: PAGE, deps: [entity, actor?.id], onError: e => toast({ message: errorMessage(e) }) })
  const { items: list, total } = audit
  // the filters' choices come with each page
  const entities = audit.last?.entities ?? []
  const actors = audit.last?.actors ?? []

  const chip = (key: string, label: string, on: boolean, pick: () => void) => (
    <Text key={key} className={`audit-chip audit-chip-${key} ${on ? 'audit-chip--on' : ''}`} onClick={pick}>{label}</Text>
  )

  return (
    <Section title={t('audit.title')} className='audit-tab' extra={list ? <Text className='editor-hint audit-count'>{t('audit.count', { n: total })}</Text> : undefined}>
      <Text className='editor-label'>{t('audit.entityFilter')}</Text>
      <ScrollView scrollX className='audit-chips' enableFlex>
        {chip('entity-all', t('audit.all'), entity === null, () => setEntity(null))}
        {entities.map(x => chip(`entity-${x}`, entityLabel(x), entity === x, () => setEntity(x)))}
      </ScrollView>
      <Text className='editor-label'>{t('audit.actorFilter')}</Text>
      <ScrollView scrollX className='audit-chips' enableFlex>
        {chip('actor-all', t('audit.all'), actor === null, () => setActor(null))}
        {actors.map(a => chip(`actor-${a.id}`, a.name, actor?.id === a.id, () => setActor(a)))}
      </ScrollView>
      {list === null
        ? <Text className='editor-hint'>{t('feedback.loading')}</Text>
        : list.length === 0
          ? <EmptyState icon='📜' text={t('audit.empty')} />
          : list.map(e => <Entry key={e.id} e={e} onActor={setActor} />)}
      {list && list.length < total && <View className='audit-more' onClick={() => { void audit.loadMore() }}>{t('audit.more')}</View>}
    </Section>
  )
}

export default observer(AuditTab)
