import { useState } from 'react'
import { EDITOR_LIMITS } from '~types/limits'
import { aiApi } from '@/services/ai'
import { ApiError } from '@/services/errors'
import { errorMessage } from '@/services/request'
import { visionApi } from '@/services/vision'
import { t } from '@/stores/locale'
import { loading, toast } from '@/utils/feedback'
import { notConfigured, useHelpers } from '@/utils/useHelpers'
import type { DesignForm, SeriesForm } from './seriesForm'

/** How the series editor changes its form (each change goes through the previous state). */
export interface SeriesFormEdits {
  setField: <K extends keyof SeriesForm>(key: K, value: SeriesForm[K]) => void
  setDesign: (key: string, change: Partial<DesignForm>) => void
  update: (change: (f: SeriesForm) => SeriesForm) => void
}

/**
 * The series editor's AI helpers and its drawn cover: which of them the server can answer, whether one
 * is at work, and the calls that write their answers into the form.
 */
export function useSeriesAi (form: SeriesForm, { setField, setDesign, update }: SeriesFormEdits) {
  // which helpers the server can answer (POST /api/helpers): a button that cannot work is not shown
  const [helpers, helperOff] = useHelpers()
  // the AI helpers (spec 7 AiAnalysis, textTransform): shown once the server says it has AI
  const aiOn = helpers?.ai === true
  const [aiBusy, setAiBusy] = useState(false)
  const aiFailed = (e: unknown) => {
    if (e instanceof ApiError && e.code === 422 && (e.data as { provider?: string } | null)?.provider === 'ai') {
      helperOff('ai')
      toast({ message: t('seriesForm.aiOff') })
    } else {
      toast({ message: errorMessage(e) })
    }
  }
  // a cover drawn from words (spec 7 /api/pic/word2pic): shown once the server says it can draw
  const [coverPrompt, setCoverPrompt] = useState('')
  const [drawing, setDrawing] = useState(false)
  const drawCover = async () => {
    if (drawing) return
    const words = coverPrompt.trim() || [form.titleZh, form.descriptionZh].filter(Boolean).join('：')
    setDrawing(true)
    try {
      const drawn = await loading.wrap(visionApi.word2pic(words))
      setField('cover', drawn.url)
      toast({ message: t('seriesForm.coverDrawn'), level: 'success' })
    } catch (e) {
      if (notConfigured(e, 'imageGen')) { helperOff('word2pic'); toast({ message: t('vision.drawOff') }) } else toast({ message: errorMessage(e) })
    } finally { setDrawing(false) }
  }
  /** A Chinese description written by the AI from the title, the designs and their images. */
  const aiDescribe = async () => {
    if (aiBusy) return
    if (!form.titleZh.trim()) { toast({ message: t('seriesForm.aiNeedsTitle') }); return }
    setAiBusy(true)
    try {
      const designs = form.designs.map(d => `${d.nameZh || d.nameEn}（${t(`rarity.${d.rarity}`)}）`).join('、')
      const images = form.designs.map(d => d.image).filter((x): x is string => !!x).slice(0, 4)
      const r = await loading.wrap(aiApi.analysis(`系列：${form.titleZh}\n款式：${designs || '（未填）'}`, { prompt: t('seriesForm.aiPrompt'), images }))
      setField('descriptionZh', r.answer.trim().slice(0, EDITOR_LIMITS.descriptionMax))
    } catch (e) { aiFailed(e) } finally { setAiBusy(false) }
  }
  /** The picture described by the AI (spec 7 /api/pic/pic2word), in Chinese and in English, for the operator to check. */
  const aiAlt = async (key: string, image: string) => {
    if (aiBusy) return
    setAiBusy(true)
    try {
      const [zh, en] = await loading.wrap(Promise.all([visionApi.pic2word(image, 'zh'), visionApi.pic2word(image, 'en')]))
      const cut = (text: string) => text.replace(/[\r\n]+/g, ' ').trim().slice(0, EDITOR_LIMITS.altMax)
      setDesign(key, { altZh: cut(zh.text), altEn: cut(en.text) })
      toast({ message: t('seriesForm.altProposed'), level: 'success' })
    } catch (e) { aiFailed(e) } finally { setAiBusy(false) }
  }
  /** The Chinese description polished by the AI (spec 7 /api/text/text2text): clearer, same facts, no promises. */
  const aiPolish = async () => {
    if (aiBusy) return
    if (!form.descriptionZh.trim()) { toast({ message: t('seriesForm.aiNeedsDescription') }); return }
    setAiBusy(true)
    try {
      const r = await loading.wrap(aiApi.text2text(form.descriptionZh, t('seriesForm.polishPrompt')))
      const polished = r.answer.trim().slice(0, EDITOR_LIMITS.descriptionMax)
      if (polished) {
        setField('descriptionZh', polished)
        toast({ message: t('seriesForm.aiPolished'), level: 'success' })
      }
    } catch (e) { aiFailed(e) } finally { setAiBusy(false) }
  }
  /** The Chinese texts (title, description, rules, design names) translated into the English fields. */
  const aiTranslate = async () => {
    if (aiBusy) return
    setAiBusy(true)
    try {
      const en = async (zh: string, max: number, oneLine = false) => {
        if (!zh.trim()) return null
        const answer = (await aiApi.translate(zh, 'zh', 'en')).answer.trim()
        return (oneLine ? answer.replace(/[\r\n]+/g, ' ') : answer).slice(0, max)
      }
      const done = await loading.wrap((async () => ({
        title: await en(form.titleZh, EDITOR_LIMITS.titleMax, true),
        description: await en(form.descriptionZh, EDITOR_LIMITS.descriptionMax),
        rules: await en(form.rulesZh, EDITOR_LIMITS.rulesMax),
        names: await Promise.all(form.designs.map(async d => [d.key, await en(d.nameZh, EDITOR_LIMITS.designNameMax, true)] as const))
      }))())
      update(f => ({
        ...f,
        titleEn: done.title ?? f.titleEn,
        descriptionEn: done.description ?? f.descriptionEn,
        rulesEn: done.rules ?? f.rulesEn,
        designs: f.designs.map(d => { const n = done.names.find(([k]) => k === d.key)?.[1]; return n ? { ...d, nameEn: n } : d })
      }))
      toast({ message: t('seriesForm.aiTranslated'), level: 'success' })
    } catch (e) { aiFailed(e) } finally { setAiBusy(false) }
  }

  return { helpers, aiOn, aiBusy, coverPrompt, setCoverPrompt, drawing, drawCover, aiDescribe, aiAlt, aiPolish, aiTranslate }
}
