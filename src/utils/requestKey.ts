import { useMemo, useRef } from 'react'
import { randomString } from '@/utils/random'

export interface RequestKeys {
  /** The key for this request: the same as last time while `what` (the request's body, in short) is unchanged. */
  keyFor (what: string): string
  /** The request succeeded: the next one, even the same again, is a new intention with a new key. */
  done (): void
}

/**
 * One idempotency key per intended request. A shopper who taps again after an answer that never came
 * (a timeout, a dropped connection) sends the same request with the same key, and the server applies it
 * once: the repeat answers the first result (server/src/domain/idempotency.ts). A different request, or
 * the next one after a success, gets a fresh key. A refusal keeps the key: the server stored nothing for
 * it, so the same request again is simply tried again.
 */
export function useRequestKeys (): RequestKeys {
  const current = useRef<{ what: string; key: string } | null>(null)
  return useMemo(() => ({
    keyFor (what: string): string {
      if (current.current?.what !== what) current.current = { what, key: randomString(24) }
      return current.current.key
    },
    done (): void { current.current = null }
  }), [])
}
