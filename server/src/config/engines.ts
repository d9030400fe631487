/**
 * The helpers that make or read media: text to speech, the AI chat API, OCR, pictures from words,
 * PDF pages, promo videos and jingles. Each is off (or local) without its key or engine.
 */
import { isUrl, variable, type Problems, type Reader } from './env'

const IMAGE_MODEL = /^[\w.:/-]{1,100}$/
const VIDEO_MODEL = /^[A-Za-z0-9._-]{1,64}$/

export const enginesVariables = {
  TTS_ENGINE: variable.oneOf(['espeak-ng', 'off', 'auto'], 'Text to speech: espeak-ng (required) or off; unset: espeak-ng when installed', 'auto'),
  AI_API_BASE: variable.url('A Dify-compatible chat API', 'https://api.dify.ai/v1'),
  AI_API_KEY: variable.text('The AI API\'s key; unset: the AI calls are off'),
  OCR_ENGINE: variable.oneOf(['tesseract', 'off', 'auto'], 'OCR: tesseract (required) or off; unset: tesseract when installed with chi_sim and eng', 'auto'),
  IMAGE_API_BASE: variable.url('An OpenAI-compatible Images API (pictures from words)', 'https://api.openai.com/v1'),
  IMAGE_API_KEY: variable.text('The Images API\'s key; unset: pictures from words are off'),
  IMAGE_MODEL: variable.text('The Images API\'s model', { default: 'dall-e-3', pattern: IMAGE_MODEL }),
  PDF_ENGINE: variable.oneOf(['pdfjs', 'off'], 'PDF to images: pdfjs-dist on @napi-rs/canvas, or off', 'pdfjs'),
  VIDEO_API_BASE: variable.url('Zhipu BigModel\'s API (promo videos)', 'https://open.bigmodel.cn/api/paas/v4'),
  VIDEO_API_KEY: variable.text('The video API\'s key; unset: promo videos are off'),
  VIDEO_MODEL: variable.text('The video model, e.g. cogvideox-flash or cogvideox-3', { default: 'cogvideox-flash', pattern: VIDEO_MODEL }),
  MUSIC_API_BASE: variable.url('A gcui-art/suno-api server (jingles); unset: music is off'),
  MUSIC_API_KEY: variable.text('A bearer key for the gateway in front of MUSIC_API_BASE')
}

export interface EnginesConfig {
  /** TTS_ENGINE: espeak-ng (required), off, or unset (espeak-ng when it is installed). */
  ttsEngine: 'espeak-ng' | 'off' | 'auto'
  /** AI_API_BASE (a Dify-compatible API, default Dify's cloud) and AI_API_KEY (unset: AI is off). */
  ai?: { base: string; apiKey: string }
  /** OCR_ENGINE: tesseract (required), off, or unset (tesseract when it is installed with chi_sim and eng). */
  ocrEngine: 'tesseract' | 'off' | 'auto'
  /** IMAGE_API_BASE (an OpenAI-compatible Images API), IMAGE_API_KEY (unset: word2pic is off), IMAGE_MODEL. */
  imageGen?: { base: string; apiKey: string; model: string }
  /** PDF_ENGINE: pdfjs (default: pdfjs-dist with @napi-rs/canvas, from npm) or off. */
  pdfEngine: 'pdfjs' | 'off'
  /** VIDEO_API_BASE (Zhipu BigModel, default its cloud), VIDEO_API_KEY (unset: video is off), VIDEO_MODEL. */
  video?: { base: string; apiKey: string; model: string }
  /** MUSIC_API_BASE (a gcui-art/suno-api server; unset: music is off) and MUSIC_API_KEY (optional Bearer key). */
  music?: { base: string; apiKey: string | null }
}

/** TTS_ENGINE, AI_*, OCR_ENGINE, IMAGE_*, PDF_ENGINE, VIDEO_* and MUSIC_*. */
export function parseEngines (env: Reader<keyof typeof enginesVariables>, problems: Problems): EnginesConfig {
  const ttsRaw = env.value('TTS_ENGINE')
  if (!['espeak-ng', 'off', 'auto'].includes(ttsRaw)) problems.push(`TTS_ENGINE must be espeak-ng or off (unset: espeak-ng when installed), got "${ttsRaw.slice(0, 40)}"`)
  const aiBase = env.value('AI_API_BASE').replace(/\/+$/, '')
  if (!isUrl(aiBase, ['http:', 'https:'])) problems.push('AI_API_BASE must be an http:// or https:// URL (a Dify-compatible API, e.g. https://api.dify.ai/v1)')
  const aiKey = env.get('AI_API_KEY')
  const ocrRaw = env.value('OCR_ENGINE')
  if (!['tesseract', 'off', 'auto'].includes(ocrRaw)) problems.push(`OCR_ENGINE must be tesseract or off (unset: tesseract when installed), got "${ocrRaw.slice(0, 40)}"`)
  const imageBase = env.value('IMAGE_API_BASE').replace(/\/+$/, '')
  if (!isUrl(imageBase, ['http:', 'https:'])) problems.push('IMAGE_API_BASE must be an http:// or https:// URL (an OpenAI-compatible Images API, e.g. https://api.openai.com/v1)')
  const imageKey = env.get('IMAGE_API_KEY')
  const imageModel = env.value('IMAGE_MODEL')
  if (!IMAGE_MODEL.test(imageModel)) problems.push('IMAGE_MODEL must be a model name (letters, digits, . : / _ -), e.g. dall-e-3')
  const pdfRaw = env.value('PDF_ENGINE')
  if (pdfRaw !== 'pdfjs' && pdfRaw !== 'off') problems.push(`PDF_ENGINE must be pdfjs or off, got "${pdfRaw.slice(0, 40)}"`)
  const videoBase = env.value('VIDEO_API_BASE').replace(/\/+$/, '')
  if (!isUrl(videoBase, ['http:', 'https:'])) problems.push('VIDEO_API_BASE must be an http:// or https:// URL (Zhipu BigModel, e.g. https://open.bigmodel.cn/api/paas/v4)')
  const videoKey = env.get('VIDEO_API_KEY')
  const videoModel = env.value('VIDEO_MODEL')
  if (!VIDEO_MODEL.test(videoModel)) problems.push('VIDEO_MODEL must be a model name such as cogvideox-flash or cogvideox-3')
  const musicBase = env.get('MUSIC_API_BASE')?.replace(/\/+$/, '')
  if (musicBase && !isUrl(musicBase, ['http:', 'https:'])) problems.push('MUSIC_API_BASE must be an http:// or https:// URL (a gcui-art/suno-api server, e.g. http://127.0.0.1:3001)')
  if (!musicBase && env.get('MUSIC_API_KEY')) problems.push('MUSIC_API_KEY needs MUSIC_API_BASE (the suno-api server it unlocks)')
  return {
    ttsEngine: ttsRaw as EnginesConfig['ttsEngine'],
    ...(aiKey ? { ai: { base: aiBase, apiKey: aiKey } } : {}),
    ocrEngine: ocrRaw as EnginesConfig['ocrEngine'],
    ...(imageKey ? { imageGen: { base: imageBase, apiKey: imageKey, model: imageModel } } : {}),
    pdfEngine: pdfRaw === 'off' ? 'off' : 'pdfjs',
    ...(videoKey ? { video: { base: videoBase, apiKey: videoKey, model: videoModel } } : {}),
    ...(musicBase ? { music: { base: musicBase, apiKey: env.get('MUSIC_API_KEY') ?? null } } : {})
  }
}
