import { useState } from 'react'
import { View, Text, Input } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { OPERATOR_LIMITS } from '~types/limits'
import type { OperatorUserView } from '~types/operators'
import Section from '@/components/Section'
import EmptyState from '@/components/EmptyState'
import { operatorRoleApi } from '@/services/operators'
import { errorMessage } from '@/services/request'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { formatTime, maskPhone } from '@/utils/format'
import { usePagedList, useRemote } from '@/utils/useRemote'
import { userLabel } from './operatorLabel'
import './OperatorsTab.scss'

const PAGE = 20

/**
 * The operators: who they are, and an account search (user name, phone or e-mail, shown masked) to
 * grant or revoke the role. The server refuses an operator's own role and the last operator's; the
 * buttons say so before anyone taps them. Every change is in the audit log.
 */
function OperatorsTab () {
  const [query, setQuery] = useState('')
  // the text last searched for (null before the first search); a page of accounts at a time
  const [searched, setSearched] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const onError = (e: unknown) => toast({ message: errorMessage(e) })

  const ops = useRemote(async () => (await operatorRoleApi.users({ page: 1, size: OPERATOR_LIMITS.pageSizeMax, role: 'operator' })).list, [], { onError })
  const operators = ops.data ?? null
  const found = usePagedList((page, size) => {
    const q = (searched ?? '').trim()
    return operatorRoleApi.users({ page, size, ...(q ? { query: q } : {}) })
  }, { pageSize: PAGE, deps: [searched], enabled: searched !== null, onError })
  const results = found.items ?? []
  const total = found.total

  const search = (text: string) => { if (text === searched) void found.refresh(); else setSearched(text) }

  const change = async (u: OperatorUserView, role: 'operator' | 'shopper') => {
    if (busy) return
    const user = userLabel(u)
    const ok = await dialog({ message: t(role === 'operator' ? 'opRoles.confirmGrant' : 'opRoles.confirmRevoke', { user }) })
    if (!ok) return
    setBusy(true)
    try {
      await loading.wrap(operatorRoleApi.roleSave({ userId: u.id, role }))
      toast({ message: t(role === 'operator' ? 'opRoles.granted' : 'opRoles.revoked', { user }), level: 'success' })
    } catch (e) {
      toast({ message: errorMessage(e) })
    } finally {
      setBusy(false)
      await ops.reload()
      if (searched !== null) await found.refresh()
    }
  }

  const lastOne = (operators?.length ?? 0) <= 1
  /** Why a revoke button is off, or null when it is on. */
  const revokeBlocked = (u: OperatorUserView): string | null => u.self ? t('opRoles.selfHint') : lastOne ? t('opRoles.lastHint') : null

  const row = (u: OperatorUserView) => {
    const blocked = u.role === 'operator' ? revokeBlocked(u) : null
    return (
      <View key={u.id} className={`op-user op-user-${u.id} op-user--${u.role}`}>
        <View className='op-user__main'>
          <View className='op-user__head'>
            <Text className='op-user__name'>{userLabel(u)}{u.self ? ` ${t('opRoles.you')}` : ''}</Text>
            <Text className={`op-user__role op-user__role--${u.role}`}>{t(u.role === 'operator' ? 'opRoles.roleOperator' : 'opRoles.roleShopper')}</Text>
          </View>
          <Text className='op-user__meta'>{[maskPhone(u.phone), u.email, t('opRoles.joined', { time: formatTime(u.createdAt) })].filter(Boolean).join(' · ')}</Text>
          {blocked && <Text className='op-user__meta'>{blocked}</Text>}
        </View>
        {u.role === 'shopper'
          ? <View className={`btn btn--primary op-user__grant ${busy ? 'btn--disabled' : ''}`} onClick={() => { void change(u, 'operator') }}>{t('opRoles.grant')}</View>
          : <View className={`btn btn--ghost op-user__revoke ${busy || blocked ? 'btn--disabled' : ''}`} onClick={() => { if (!blocked) void change(u, 'shopper') }}>{t('opRoles.revoke')}</View>}
      </View>
    )
  }

  return (
    <>
      <Section title={t('opRoles.title')} className='op-roles'>
        <Text className='editor-hint op-roles__hint'>{t('opRoles.configHint')}</Text>
        {operators === null
          ? <Text className='editor-hint'>{t('feedback.loading')}</Text>
          : operators.map(row)}
      </Section>
      <Section title={t('opRoles.findTitle')} className='op-find'>
        <View className='op-find__bar'>
          <Input className='editor-input op-find__input' value={query} maxlength={OPERATOR_LIMITS.userQueryMax}
            placeholder={t('opRoles.searchPlaceholder')} confirmType='search'
            onInput={e => setQuery(e.detail.value)} onConfirm={() => search(query)} />
          <View className='btn btn--primary op-find__go' onClick={() => search(query)}>{t('opRoles.search')}</View>
        </View>
        {found.items !== null && (results.length === 0
          ? <EmptyState icon='🔍' text={t('opRoles.none')} />
          : (
            <>
              <Text className='editor-hint op-find__count'>{t('opRoles.found', { n: total })}</Text>
              {results.map(row)}
              {results.length < total && <View className='op-find__more' onClick={() => { void found.loadMore() }}>{t('opRoles.more')}</View>}
            </>
            ))}
      </Section>
    </>
  )
}

export default observer(OperatorsTab)
