import { useState } from 'react'
import Taro from '@tarojs/taro'
import { View, Text, Input, Image } from '@tarojs/components'
import { observer } from '@/stores/mobx'
import { PDF_URL_PATTERN, TASK_LIMITS, UPLOAD_PDF_MAX_MB } from '~types/limits'
import type { PdfTask } from '~types/tasks'
import Section from '@/components/Section'
import { t } from '@/stores/locale'
import { errorMessage } from '@/services/request'
import { visionApi } from '@/services/vision'
import { ApiError } from '@/services/errors'
import { chooseAndUploadPdf, uploadPdfObject } from '@/services/upload'
import { download } from '@/services/download'
import { isFatalTaskError, judgePdf, tasksApi } from '@/services/tasks'
import { loading, toast } from '@/utils/feedback'
import { mediaUrl } from '@/utils/media'
import { useTaskPoll } from './useTaskPoll'
import { useRemote } from '@/utils/useRemote'
import TaskProgress from './TaskProgress'
import PagePreview from './PagePreview'
import { decorativeImage } from '@/utils/format'
import './tasks.scss'

const PDF_URL = new RegExp(PDF_URL_PATTERN)

/**
 * See a PDF as images (spec 7 pdf2image + queryPDF2ImageTask): the operator uploads a catalogue or an
 * invoice (or names one already uploaded), the server draws its pages, and they appear here as they
 * come, with the progress and a Cancel; a tap opens a page in the zoomable preview. Hidden behind an
 * explanation when the server's engine is off.
 */
function PdfTab () {
  // the engine's switch: null until the server says; on when it cannot be asked; off after a "not configured"
  const helpers = useRemote(() => visionApi.helpers(), [])
  const [pdfOff, setPdfOff] = useState(false)
  const enabled: boolean | null = pdfOff ? false : helpers.data ? helpers.data.pdf : helpers.failed ? true : null
  const [url, setUrl] = useState('')
  const [uploading, setUploading] = useState(false)
  const [preview, setPreview] = useState<number | null>(null)
  const task = useTaskPoll<string, PdfTask>()

  const convert = async (source: string) => {
    const value = source.trim()
    if (!PDF_URL.test(value)) { toast({ message: t('pdfPages.badUrl') }); return }
    setPreview(null)
    try {
      await task.start({
        create: async () => (await tasksApi.pdf2image(value)).taskId,
        query: id => tasksApi.queryPdf(id),
        judge: judgePdf,
        isFatal: isFatalTaskError
      })
    } catch (e) {
      if (e instanceof ApiError && e.code === 422 && (e.data as { provider?: string } | null)?.provider === 'pdf') setPdfOff(true)
      toast({ message: errorMessage(e) })
    }
  }

  const upload = async (send: () => Promise<{ url: string }>) => {
    if (uploading) return
    setUploading(true)
    try {
      const { url: uploaded } = await send()
      setUrl(uploaded)
      setUploading(false)
      await convert(uploaded)
    } catch (e) {
      setUploading(false)
      toast({ message: errorMessage(e) })
    }
  }

  /**
   * The PDF itself, through the download helper (its token and 60 s limit): the mini-program opens the
   * file it saved in WeChat's document viewer (wx.openDocument takes only a local file); a browser
   * saves it under its name.
   */
  const openPdf = async () => {
    const value = url.trim()
    if (!PDF_URL.test(value)) { toast({ message: t('pdfPages.badUrl') }); return }
    // uploads are served beside the API, not under its base (as every picture: utils/media.ts)
    const href = mediaUrl(value)
    const absolute = process.env.TARO_ENV === 'h5' && !/^https?:\/\//i.test(href) ? new URL(href, window.location.href).href : href
    try {
      const file = await loading.wrap(download(absolute))
      if (process.env.TARO_ENV === 'h5') {
        const a = document.createElement('a')
        a.href = file
        a.download = value.split('/').pop() ?? 'document.pdf'
        document.body.appendChild(a)
        a.click()
        a.remove()
      } else {
        await Taro.openDocument({ filePath: file, fileType: 'pdf', showMenu: true })
      }
    } catch (e) { toast({ message: errorMessage(e) }) }
  }

  if (enabled === false) {
    return <Section title={t('pdfPages.title')} className='pdf-tab'><Text className='editor-hint pdf-off'>{t('pdfPages.off')}</Text></Section>
  }
  const v = task.view
  const answer = v.phase === 'polling' || v.phase === 'done' || v.phase === 'failed' ? v.answer : null
  const pages = answer?.pages ?? []
  const busy = uploading || v.phase === 'starting' || v.phase === 'polling'
  return (
    <Section title={t('pdfPages.title')} className='pdf-tab'>
      <Text className='editor-hint'>{t('pdfPages.hint', { mb: UPLOAD_PDF_MAX_MB, pages: TASK_LIMITS.pdfMaxPages })}</Text>
      <View className='pdf-actions'>
        <View className={`btn btn--primary pdf-upload ${busy ? 'btn--disabled' : ''}`}
          onClick={() => { if (process.env.TARO_ENV !== 'h5' && !busy) void upload(chooseAndUploadPdf) }}>
          {uploading ? t('pdfPages.uploading') : t('pdfPages.upload')}
          {process.env.TARO_ENV === 'h5' && (
            <input className='pdf-upload__input' type='file' accept='application/pdf,.pdf' disabled={busy} aria-label={t('pdfPages.upload')}
              onChange={e => {
                const input = e.currentTarget
                const file = input.files?.[0] ?? null
                input.value = ''
                void upload(() => uploadPdfObject(file))
              }} />
          )}
        </View>
      </View>
      <Text className='editor-label'>{t('pdfPages.urlLabel')}</Text>
      <View className='pdf-actions'>
        <Input className='editor-input pdf-url' style={{ flex: 1 }} value={url} maxlength={300} placeholder={t('pdfPages.urlPlaceholder')} onInput={e => setUrl(e.detail.value)} />
        <View className={`btn btn--ghost pdf-convert ${busy ? 'btn--disabled' : ''}`} onClick={() => { if (!busy) void convert(url) }}>{t('pdfPages.convert')}</View>
      </View>
      {PDF_URL.test(url.trim()) && <View className='btn btn--ghost pdf-open' onClick={() => { void openPdf() }}>{t(process.env.TARO_ENV === 'h5' ? 'pdfPages.save' : 'pdfPages.open')}</View>}
      <TaskProgress view={v} className='pdf-progress' onCancel={task.cancel}
        fraction={a => (a?.pageCount ? a.pages.length / Math.min(a.pageCount, TASK_LIMITS.pdfMaxPages) : null)}
        detail={(a, s) => (a?.pageCount ? t('tasks.pages', { done: a.pages.length, total: Math.min(a.pageCount, TASK_LIMITS.pdfMaxPages) }) : a?.state === 0 ? t('tasks.waiting', { s }) : null)}
        failure={(a, e) => a?.message || errorMessage(e)} />
      {v.phase === 'done' && answer && (
        <Text className='pdf-summary'>
          {t('pdfPages.done', { total: answer.pageCount ?? pages.length, shown: pages.length })}
          {answer.truncated ? ` · ${t('pdfPages.truncated', { pages: TASK_LIMITS.pdfMaxPages })}` : ''}
        </Text>
      )}
      {pages.length > 0 && (
        <View className='pdf-pages'>
          {pages.map((p, i) => (
            <View key={p.url + i} className={`pdf-page pdf-page-${i + 1}`} onClick={() => setPreview(i)}>
              <Text className='pdf-page__label'>{t('pdfPages.page', { n: i + 1 })} · {p.width}×{p.height}</Text>
              <Image className='pdf-page__img' src={mediaUrl(p.url)} mode='widthFix' lazyLoad {...decorativeImage()} />
            </View>
          ))}
        </View>
      )}
      {preview !== null && pages[preview] && <PagePreview pages={pages} start={preview} onClose={() => setPreview(null)} />}
    </Section>
  )
}

export default observer(PdfTab)
