/**
 * Text to speech (types/speech.ts): the text spoken by the local engine, kept like an upload (the media
 * store, by the SHA-256 of the audio) and served under /media/u/<sha>.wav.
 */
import { createHash } from 'node:crypto'
import { speechRoutes as r } from '../../../types/speech'
import type { Api, AppContext } from '../context'
import { iso } from '../core/clock'
import { enforceLimits } from '../http/request'
import { configured, providerCall } from '../http/provider-call'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import { wavDurationMs } from '../providers/tts'
import { FairGate } from '../providers/ocr'

/** zh when the text has a Han character, else en. */
export const voiceOf = (text: string): 'zh' | 'en' => (/\p{Script=Han}/u.test(text) ? 'zh' : 'en')

/**
 * espeak-ng runs on this machine's cores: at most two voices at once, one per account, and a free place
 * goes to the waiting account served longest ago (the OCR engine's rule), so one shopper's burst of reads
 * waits behind itself, not in front of everyone else.
 */
export const TTS_CONCURRENCY = 2

export function speechRoutesOf (app: Api, ctx: AppContext): void {
  const gate = new FairGate(TTS_CONCURRENCY, 1)
  defineRoute(app, ctx, r.tts, async ({ body, userId }) => {
    const engine = configured(ctx.tts, 'tts')
    await enforceLimits(ctx, [[RULES.ttsPerUser, String(userId)]])
    const lang = body.lang ?? voiceOf(body.text)
    const wav = await gate.run(String(userId), () => providerCall('tts', () => engine.speak(body.text, lang)))
    const sha256 = createHash('sha256').update(wav).digest('hex')
    await providerCall('media', () => ctx.media.put(sha256, 'wav', 'audio/wav', wav, { width: 0, height: 0, uploadedBy: userId, createdAt: iso(ctx.clock()) }))
    return { url: `/media/u/${sha256}.wav`, contentType: 'audio/wav', bytes: wav.length, durationMs: wavDurationMs(wav), lang, engine: engine.name }
  })
}
