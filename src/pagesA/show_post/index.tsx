// first: on H5 the page waits for the rest of the dictionary (src/locales/full.h5.ts)
import '@/locales/full'
import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View, Text, Textarea } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { withPageError } from '@/components/PageError/wrap'
import { SHOW_LIMITS, SHOW_REPORT_REASONS } from '~types/limits'
import type { ShowComment, ShowReply, ShowReportReason, ShowTarget } from '~types/show'
import PageShell from '@/components/PageShell'
import EmptyState from '@/components/EmptyState'
import Section from '@/components/Section'
import RarityBadge from '@/components/RarityBadge'
import ShareBar from '@/components/ShareBar'
import ShowCard from '@/components/ShowCard'
import ProofRow from './ProofRow'
import { showApi } from '@/services/show'
import { errorMessage } from '@/services/request'
import { sessionStore } from '@/stores/session'
import { t } from '@/stores/locale'
import { dialog, loading, toast } from '@/utils/feedback'
import { a11yControl, formatTime } from '@/utils/format'
import { goBack } from '@/utils/navigation'
import { useListPageEvents, usePagedList, useRemote } from '@/utils/useRemote'
import './index.scss'

const COMMENTS_PAGE = 20

interface Reporting { target: ShowTarget; id: number }

/** One post of the player show: the post and the proof of each prize, likes, comments and replies, report, share. */
function ShowPostPage () {
  const { params } = useRouter()
  const postId = Number(params.id)
  const valid = Number.isInteger(postId) && postId > 0
  const post = useRemote(() => showApi.detail(postId), [postId], { enabled: valid })
  const comments = usePagedList((page, size) => showApi.comments(postId, page, size), { pageSize: COMMENTS_PAGE, deps: [postId], enabled: valid })
  useListPageEvents(comments, { pullDownRefresh: post.reload })
  const [text, setText] = useState('')
  const [replyTo, setReplyTo] = useState<ShowComment | null>(null)
  const [reporting, setReporting] = useState<Reporting | null>(null)
  const [reason, setReason] = useState<ShowReportReason | null>(null)
  const [note, setNote] = useState('')
  const [busy, setBusy] = useState(false)

  if (!valid || (post.failed && !post.loading && !post.data)) {
    return <PageShell className='show-post-page'><EmptyState icon='🔍' text={t('show.notFound')} action={valid ? { label: t('feedback.retry'), onClick: post.retry } : undefined} /></PageShell>
  }
  const p = post.data
  if (!p) return <PageShell className='show-post-page'><Text className='show-post-loading'>{t('feedback.loading')}</Text></PageShell>

  const needLogin = () => {
    if (sessionStore.loggedIn) return false
    toast({ message: t('show.loginFirst') })
    return true
  }
  const like = async () => {
    if (needLogin()) return
    try {
      const r = await showApi.like(p.id, !p.liked)
      post.setData(d => d && { ...d, liked: r.liked, likeCount: r.likeCount })
    } catch (e) { toast({ message: errorMessage(e) }) }
  }
  const send = async () => {
    if (busy || needLogin()) return
    const words = text.trim()
    if (!words) { toast({ message: t('show.needText') }); return }
    setBusy(true)
    try {
      await loading.wrap(showApi.comment({ postId: p.id, text: words, ...(replyTo ? { parentId: replyTo.id } : {}) }))
      setText('')
      setReplyTo(null)
      post.setData(d => d && { ...d, commentCount: d.commentCount + 1 })
      await comments.refresh()
    } catch (e) { toast({ message: errorMessage(e) }) } finally { setBusy(false) }
  }
  const startReport = (target: ShowTarget, id: number) => {
    if (needLogin()) return
    setReporting({ target, id })
    setReason(null)
    setNote('')
  }
  const sendReport = async () => {
    if (!reporting || !reason || busy) return
    setBusy(true)
    try {
      await loading.wrap(showApi.report({ ...reporting, reason, ...(note.trim() ? { note: note.trim() } : {}) }))
      setReporting(null)
      toast({ message: t('show.reported'), level: 'success' })
    } catch (e) { toast({ message: errorMessage(e) }) } finally { setBusy(false) }
  }
  const remove = async () => {
    if (!(await dialog({ message: t('show.deleteConfirm'), confirmText: t('show.delete') }))) return
    try {
      await loading.wrap(showApi.remove(p.id))
      toast({ message: t('show.deleted'), level: 'success' })
      goBack()
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  const line = (c: ShowReply, reply: boolean) => (
    <View key={c.id} className={`show-comment show-comment-${c.id} ${reply ? 'show-comment--reply' : ''}`}>
      <Text className='show-comment__by'>{t('show.by', { name: c.authorName, time: formatTime(c.createdAt) })}</Text>
      {c.status === 'visible' || (c.mine && !c.hiddenReason)
        ? <Text className='show-comment__text'>{c.text}</Text>
        : c.mine && c.hiddenReason
          ? <Text className='show-comment__hidden'>{t('show.commentHiddenMine', { reason: c.hiddenReason })}</Text>
          : <Text className='show-comment__hidden'>{t('show.commentHidden')}</Text>}
      <View className='show-comment__actions'>
        {!reply && c.status === 'visible' && <Text className='show-comment__act show-reply' {...a11yControl()} onClick={() => { if (!needLogin()) setReplyTo(c as ShowComment) }}>{t('show.reply')}</Text>}
        {!c.mine && c.status === 'visible' && <Text className='show-comment__act show-comment-report' {...a11yControl()} onClick={() => startReport('comment', c.id)}>{t('show.report')}</Text>}
      </View>
    </View>
  )

  const title = p.text.length > 30 ? `${Array.from(p.text).slice(0, 30).join('')}…` : p.text
  return (
    <PageShell className='show-post-page' share={{ title, path: '/pagesA/show_post/index', query: { id: p.id } }}>
      {p.status !== 'visible' && p.mine && (
        <Text className='show-post-notice'>{p.hiddenReason ? t('show.hiddenNotice', { reason: p.hiddenReason }) : t('show.reportedNotice')}</Text>
      )}
      <ShowCard post={p} full onLike={() => { void like() }} />
      <View className='show-post-actions'>
        {p.mine
          ? <View className='btn btn--ghost show-post-delete' {...a11yControl()} onClick={() => { void remove() }}>{t('show.delete')}</View>
          : <View className='btn btn--ghost show-post-report' {...a11yControl()} onClick={() => startReport('post', p.id)}>{t('show.report')}</View>}
      </View>
      {reporting && (
        <View className='show-report'>
          <Text className='show-report__title'>{t('show.reportTitle')}</Text>
          {SHOW_REPORT_REASONS.map(r => (
            <View key={r} className={`show-report__reason show-reason-${r} ${reason === r ? 'show-report__reason--on' : ''}`} {...a11yControl(undefined, 'radio')}
              aria-checked={reason === r ? 'true' : 'false'} onClick={() => setReason(r)}>{t(`show.reason.${r}`)}</View>
          ))}
          <Textarea className='show-report__note' value={note} maxlength={SHOW_LIMITS.reportNoteMax} placeholder={t('show.reportNote')}
            aria-label={t('show.reportNote')} onInput={e => setNote(e.detail.value)} />
          <View className='show-report__buttons'>
            <View className='btn btn--ghost show-report-cancel' {...a11yControl()} onClick={() => setReporting(null)}>{t('show.cancel')}</View>
            <View className={`btn btn--primary show-report-send ${reason ? '' : 'btn--disabled'}`} {...a11yControl()} onClick={() => { void sendReport() }}>{t('show.report')}</View>
          </View>
        </View>
      )}
      {p.status === 'visible' && <ShareBar title={title} />}
      <Section title={t('show.proofTitle')} className='show-proofs'>
        {p.prizes.map(x => <ProofRow key={x.prizeId} prize={x} badge={<RarityBadge rarity={x.design.rarity} />} />)}
      </Section>
      <Section title={t('show.commentsTitle')} className='show-comments'>
        {comments.items?.length === 0 && <Text className='show-comments__empty'>{t('show.noComments')}</Text>}
        {comments.items?.map(c => (
          <View key={c.id}>
            {line(c, false)}
            {c.replies.map(r => line(r, true))}
          </View>
        ))}
        {comments.failed && <Text className='show-comments__empty' {...a11yControl()} onClick={comments.retry}>{t('feedback.retry')}</Text>}
      </Section>
      {p.status === 'visible' && (
        <View className='show-composer'>
          {replyTo && (
            <View className='show-composer__to'>
              <Text className='show-composer__to-text'>{t('show.replyHint', { name: replyTo.authorName, max: SHOW_LIMITS.commentMax })}</Text>
              <Text className='show-composer__cancel' {...a11yControl()} onClick={() => setReplyTo(null)}>{t('show.cancelReply')}</Text>
            </View>
          )}
          <Textarea className='show-composer__text' value={text} maxlength={SHOW_LIMITS.commentMax}
            placeholder={replyTo ? t('show.replyHint', { name: replyTo.authorName, max: SHOW_LIMITS.commentMax }) : t('show.commentHint', { max: SHOW_LIMITS.commentMax })}
            aria-label={t('show.commentsTitle')} onInput={e => setText(e.detail.value)} />
          <View className={`btn btn--primary show-composer-send ${busy ? 'btn--disabled' : ''}`} {...a11yControl()} onClick={() => { void send() }}>{t('show.send')}</View>
        </View>
      )}
    </PageShell>
  )
}

// a failure while rendering offers to reload or go back (components/PageError)
export default withPageError(observer(ShowPostPage))
