/** Text to speech (types/speech.ts): the server speaks a text and answers where the audio is. */
import type { TtsRequest, speechRoutes } from '~types/speech'
import { postRoute } from './request'

type R = typeof speechRoutes

export const speechApi = {
  tts: (body: TtsRequest) => postRoute<R['tts']>('/api/text/tts', body)
}
