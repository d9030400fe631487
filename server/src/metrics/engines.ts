/**
 * The local engines (OCR, text to speech, PDF to images) with every run counted: the same engine, its
 * runs timed and told to the metrics with their outcome, `ok` or why it failed (the engine's own reason,
 * such as timeout or tooComplex; `unavailable` when it could not run; else `error`).
 */
import type { PdfEngine } from '../engines/pdf'
import { ProviderUnavailableError } from '../providers/errors'
import type { OcrEngine } from '../providers/ocr'
import type { TtsEngine } from '../providers/tts'
import type { Metrics } from './metrics'

/** An engine's reason for a failure when it gives a short word, else what kind of failure it was. */
export function engineOutcome (err: unknown): string {
  const reason = (err as { reason?: unknown } | null)?.reason
  if (typeof reason === 'string' && /^[A-Za-z]{1,24}$/.test(reason)) return reason
  return err instanceof ProviderUnavailableError ? 'unavailable' : 'error'
}

async function timed<T> (metrics: Metrics, engine: string, run: () => Promise<T>): Promise<T> {
  const started = performance.now()
  let outcome = 'ok'
  try {
    return await run()
  } catch (err) {
    outcome = engineOutcome(err)
    throw err
  } finally {
    metrics.engineRan(engine, outcome, (performance.now() - started) / 1000)
  }
}

export function meteredOcr (engine: OcrEngine, metrics: Metrics): OcrEngine {
  // the name read when it is asked for (tesseract's asks the engine its version the first time)
  return { get name () { return engine.name }, languages: engine.languages, read: (image, account) => timed(metrics, 'ocr', () => engine.read(image, account)) }
}

export function meteredTts (engine: TtsEngine, metrics: Metrics): TtsEngine {
  return { name: engine.name, speak: (text, lang) => timed(metrics, 'tts', () => engine.speak(text, lang)) }
}

export function meteredPdf (engine: PdfEngine, metrics: Metrics): PdfEngine {
  return { name: engine.name, render: (pdf, limits, onPages, onPage) => timed(metrics, 'pdf', () => engine.render(pdf, limits, onPages, onPage)) }
}
