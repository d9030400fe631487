/**
 * Text to speech (spec 7 `POST /api/text/tts` {text}; issue 11): the shop reads a draw's result aloud on
 * prize_show. The server speaks Mandarin or English with a local engine (espeak-ng from Debian) and
 * answers where the audio is served (a WAV under /media/u/, named by its bytes' hash, so the same text
 * is spoken once and then cached).
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { SPEECH_LIMITS } from './limits'
import { MultilineText, Obj, StringEnum } from './schema'

export const TtsRequest = Obj({
  text: MultilineText({ minLength: 1, maxLength: SPEECH_LIMITS.textMax }),
  /** The voice: zh (Mandarin) or en; absent, zh when the text has Chinese characters, else en. */
  lang: Type.Optional(StringEnum(['zh', 'en'] as const))
})
export type TtsRequest = Static<typeof TtsRequest>

export const TtsResult = Type.Object({
  /** Where the audio is served (/media/u/<sha-256>.wav). */
  url: Type.String(),
  contentType: Type.String(),
  bytes: Type.Integer(),
  durationMs: Type.Integer(),
  lang: StringEnum(['zh', 'en'] as const),
  engine: Type.String({ description: 'e.g. espeak-ng' })
})
export type TtsResult = Static<typeof TtsResult>

export const speechRoutes = {
  tts: route({
    method: 'POST', url: '/api/text/tts', auth: 'user', tag: 'helpers', body: TtsRequest, data: TtsResult,
    summary: 'Text to speech: a WAV of the text in Mandarin or English (local espeak-ng)',
    description: '422 "not configured" when no engine is installed (TTS_ENGINE=off, or espeak-ng missing); 30 a minute per account.'
  })
}
