import { useEffect, useRef, useState } from 'react'
import { View, Text, Image, Video } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { TASK_LIMITS } from '~types/limits'
import type { MusicItem, MusicTask, VideoTask } from '~types/tasks'
import Section from '@/components/Section'
import { t } from '@/stores/locale'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { isFatalTaskError, judgeStatus, tasksApi } from '@/services/tasks'
import { AudioPlayer } from '@/utils/audio'
import { toast } from '@/utils/feedback'
import { useTaskPoll } from './useTaskPoll'
import TaskProgress from './TaskProgress'
import { useHelpers } from '@/utils/useHelpers'
import { decorativeImage } from '@/utils/format'
import './tasks.scss'

/**
 * The series' promo video and jingle (spec 7 text2video + queryVideo, text2music + queryMusic), made
 * from its title and description: each a task with its progress and Cancel, the result playable here.
 * Each is hidden when the server has no such provider (it says so through /api/helpers, and a
 * "not configured" answer hides it too); with neither, the whole section is.
 */
function PromoTasks ({ title, description }: { title: string; description: string }) {
  // which of the two the server can make (null until it answers; neither when it cannot be asked)
  const [helpers, turnOff] = useHelpers()
  const on = helpers && { video: helpers.video, music: helpers.music }
  const video = useTaskPoll<string, VideoTask>()
  const music = useTaskPoll<string[], MusicTask>()
  const player = useRef<AudioPlayer | null>(null)
  const [playing, setPlaying] = useState<string | null>(null)
  // a clip's cover the provider's CDN could not give: the plain box instead of a broken image
  const [noCover, setNoCover] = useState<string[]>([])

  useEffect(() => () => { player.current?.destroy() }, [])

  const failed = (e: unknown, provider: 'video' | 'music') => {
    if (e instanceof ApiError && e.code === 422 && (e.data as { provider?: string } | null)?.provider === provider) {
      turnOff(provider)
      toast({ message: t(provider === 'video' ? 'promo.videoOff' : 'promo.musicOff') })
    } else {
      toast({ message: errorMessage(e) })
    }
  }
  const text = [title.trim(), description.trim()].filter(Boolean).join('：')
  const makeVideo = async () => {
    if (!title.trim()) { toast({ message: t('promo.needsText') }); return }
    try {
      await video.start({
        create: async () => (await tasksApi.text2video({ text: text.slice(0, TASK_LIMITS.videoTextMax) })).id,
        query: id => tasksApi.queryVideo(id),
        judge: judgeStatus,
        isFatal: isFatalTaskError
      })
    } catch (e) { failed(e, 'video') }
  }
  const makeMusic = async () => {
    if (!title.trim()) { toast({ message: t('promo.needsText') }); return }
    const prompt = t('promo.musicPrompt', { title: title.trim(), description: description.trim().slice(0, 200) }).slice(0, TASK_LIMITS.musicPromptMax)
    try {
      await music.start({
        create: async () => (await tasksApi.text2music(prompt)).item_ids,
        query: ids => tasksApi.queryMusic(ids),
        judge: judgeStatus,
        isFatal: isFatalTaskError
      })
    } catch (e) { failed(e, 'music') }
  }
  const play = async (clip: MusicItem) => {
    if (!clip.audioUrl) return
    try {
      if (playing === clip.id) { player.current?.pause(); setPlaying(null); return }
      player.current?.destroy()
      const p = new AudioPlayer({ src: clip.audioUrl })
      player.current = p
      p.on('ended', () => setPlaying(null))
      await p.play()
      setPlaying(clip.id)
    } catch (e) {
      toast({ message: errorMessage(e) })
    }
  }

  if (!on || (!on.video && !on.music)) return null
  const busy = (v: { phase: string }) => v.phase === 'starting' || v.phase === 'polling'
  const vv = video.view
  const mv = music.view
  return (
    <Section title={t('promo.title')} className='promo-tasks'>
      <Text className='editor-hint'>{t('promo.hint')}</Text>
      {on.video && (
        <View className='promo-task promo-video-task'>
          <View className='promo-task__head'>
            <Text className='promo-task__title'>{t('promo.video')}</Text>
            {!busy(vv) && <Text className='series-ai__btn promo-video-start' onClick={() => { void makeVideo() }}>{vv.phase === 'idle' ? t('promo.video') : t('tasks.retry')}</Text>}
          </View>
          <TaskProgress view={vv} className='promo-video-progress' onCancel={video.cancel} failure={(a, e) => a?.message || errorMessage(e)} />
          {vv.phase === 'done' && vv.answer.videoUrl && (
            <View className='promo-video-result'>
              <Text className='editor-hint'>{t('promo.videoReady')}</Text>
              <View className='promo-video-box'>
                <Video className='promo-video' src={vv.answer.videoUrl} poster={vv.answer.coverUrl ?? undefined} controls objectFit='contain'
                  style={{ width: '100%', height: '100%' }} />
              </View>
            </View>
          )}
        </View>
      )}
      {on.music && (
        <View className='promo-task promo-music-task'>
          <View className='promo-task__head'>
            <Text className='promo-task__title'>{t('promo.music')}</Text>
            {!busy(mv) && <Text className='series-ai__btn promo-music-start' onClick={() => { void makeMusic() }}>{mv.phase === 'idle' ? t('promo.music') : t('tasks.retry')}</Text>}
          </View>
          <TaskProgress view={mv} className='promo-music-progress' onCancel={music.cancel}
            fraction={a => (a?.items.length ? a.items.filter(i => i.status !== 'running').length / a.items.length : null)} />
          {mv.phase === 'done' && (
            <View className='promo-music-result'>
              <Text className='editor-hint'>{t('promo.musicReady')}</Text>
              {mv.answer.items.filter(i => i.status === 'succeeded').map(clip => (
                <View key={clip.id} className='promo-clip'>
                  {clip.imageUrl && !noCover.includes(clip.id)
                    ? <Image className='promo-clip__img' src={clip.imageUrl} mode='aspectFill' {...decorativeImage()} onError={() => setNoCover(n => [...n, clip.id])} />
                    : <View className='promo-clip__img promo-clip__img--none'>🎵</View>}
                  <Text className='promo-clip__title'>{clip.title}{clip.durationS ? ` · ${Math.round(clip.durationS)}s` : ''}</Text>
                  <Text className='promo-clip__play' onClick={() => { void play(clip) }}>{playing === clip.id ? t('promo.pause') : t('promo.play')}</Text>
                </View>
              ))}
            </View>
          )}
        </View>
      )}
    </Section>
  )
}

export default observer(PromoTasks)
