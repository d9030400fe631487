import { useState } from 'react'
import type { HelpersAvailable } from '~types/vision'
import { visionApi } from '@/services/vision'
import { useRemote } from '@/utils/useRemote'

const NONE: HelpersAvailable = { ai: false, tts: false, ocr: false, word2pic: false, pdf: false, video: false, music: false, priceCompare: false, tickets: false, flights: false }

/**
 * Which helper calls the server can answer (POST /api/helpers), asked once per mount: null until it
 * answers (a button waits rather than flashing), none when it cannot be asked. `off(name)` hides one
 * after a call said "not configured" (the server's configuration changed meanwhile). Asked only when
 * `ask` (a signed-in account: an anonymous call would be a 401 that sends the visitor to log in).
 */
export function useHelpers (ask = true): [HelpersAvailable | null, (name: keyof HelpersAvailable) => void] {
  const answer = useRemote(() => visionApi.helpers(), [], { enabled: ask })
  const [off, setOff] = useState<Partial<HelpersAvailable>>({})
  const asked = answer.data ?? (answer.failed ? NONE : null)
  const turnedOff = Object.keys(off).length > 0
  const helpers = asked ? (turnedOff ? { ...asked, ...off } : asked) : (turnedOff ? { ...NONE, ...off } : null)
  return [helpers, name => setOff(o => ({ ...o, [name]: false }))]
}

/** Whether an error is the server's "{provider} is not configured" for this provider. */
export function notConfigured (e: unknown, provider: string): boolean {
  const x = e as { code?: number; data?: { provider?: string } | null } | null
  return !!x && x.code === 422 && x.data?.provider === provider
}
