/**
 * The AI calls of spec 7 (types/ai.ts), with the spec's payload rules: `user` is the app id,
 * `conversation_id` empty for a new conversation, files are images by URL ({type: 'image',
 * transfer_method: 'remote_url', url}; a path of our server is made absolute, since the provider
 * fetches it). The server decides which account the provider sees.
 */
import type { AiFile, aiRoutes } from '~types/ai'
import { getConfig } from '@/config'
import { postRoute } from './request'

type R = typeof aiRoutes

/**
 * Where the shop's own paths are served from: the API base's origin when the base is absolute (the
 * mini-program, whose `location` is Taro's stand-in https://taro.com, not the shop), else this page's.
 */
function shopOrigin (): string {
  const base = /^(https?:\/\/[^/]+)/i.exec(getConfig().apiBase)
  if (base) return base[1]
  return typeof location === 'undefined' ? '' : location.origin
}

/** An image the provider can fetch: an absolute URL (a path of ours gets the shop's origin). */
export function imageFile (url: string, origin = shopOrigin()): AiFile {
  const absolute = /^https?:\/\//i.test(url) ? url : `${origin}${url.startsWith('/') ? '' : '/'}${url}`
  return { type: 'image', transfer_method: 'remote_url', url: absolute }
}

export const aiApi = {
  analysis: (query: string, o: { prompt?: string; conversationId?: string; images?: string[] } = {}) =>
    postRoute<R['analysis']>('/api/AiAnalysis', {
      query, conversation_id: o.conversationId ?? '', user: getConfig().appId,
      ...(o.prompt ? { prompt: o.prompt } : {}),
      ...(o.images?.length ? { files: o.images.map(u => imageFile(u)) } : {})
    }),
  questionRecognize: (query: string, images: string[], conversationId = '') =>
    postRoute<R['questionRecognize']>('/api/questionRecognize', { query, conversation_id: conversationId, user: getConfig().appId, files: images.map(u => imageFile(u)) }),
  text2text: (text: string, prompt?: string, conversationId = '') =>
    postRoute<R['text2text']>('/api/text/text2text', { text, conversationId, ...(prompt ? { prompt } : {}) }),
  /** Operators: today's AI calls against the daily budgets. */
  usage: () => postRoute<R['usage']>('/api/operator/aiUsage', {}),
  translate: (query: string, from: 'zh' | 'en' | 'auto', to: 'zh' | 'en') =>
    postRoute<R['textTransform']>('/api/textTransform', { query, from, to, conversation_id: '', user: getConfig().appId })
}
