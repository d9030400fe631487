import type { HelpersAvailable } from '../../../types/vision'
import type { AppContext } from '../context'

/** Which helper calls this server can answer (POST /api/helpers and the generic method helperFeatures). */
export function helperFeatures (ctx: AppContext): HelpersAvailable {
  return {
    ai: ctx.ai !== null,
    tts: ctx.tts !== null,
    ocr: ctx.ocr !== null,
    word2pic: ctx.imageGen !== null,
    pdf: ctx.pdf !== null,
    video: ctx.video !== null,
    music: ctx.music !== null,
    priceCompare: ctx.jdUnion !== null,
    tickets: ctx.juhe.train !== null,
    flights: ctx.juhe.flight !== null
  }
}
