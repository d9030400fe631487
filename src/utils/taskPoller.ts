/**
 * The one polling state machine of the long-running tasks (spec 4, 9: video, music, PDF): after the
 * task is created, ask every TASK_POLL_MS (2000 ms) until the answer says it ended; any other answer
 * keeps polling, with no cap on attempts. The caller's `judge` applies the spec's stop rules (see
 * services/tasks.ts): done (video and music `succeeded`, PDF state 1) or failed (video and music
 * `failed`, PDF state below 0). It stops at once when cancelled (the user's cancel, or the page
 * unmounting through useTaskPoll). Each answer is reported as progress.
 *
 * A query that fails is judged by `isFatal`: a transient failure (the network, a 5xx, a rate limit)
 * keeps polling at the same pace, a fatal one (the task is gone, the session ended) stops as failed.
 */
import { TASK_POLL_MS } from '~types/limits'

export type Verdict = 'done' | 'failed' | 'continue'

export type PollEnd<T> =
  | { status: 'done'; result: T; attempts: number }
  | { status: 'failed'; result: T | null; error: unknown; attempts: number }
  | { status: 'cancelled'; result: T | null; attempts: number }

export interface PollOptions<T> {
  query: () => Promise<T>
  judge: (answer: T) => Verdict
  /** Every answer (and every transient failure, with the error), in order. */
  onProgress?: (p: { answer: T | null; attempts: number; error?: unknown }) => void
  /** Default: every failure is fatal. */
  isFatal?: (error: unknown) => boolean
  intervalMs?: number
}

export interface PollHandle<T> {
  /** Settles once: done, failed or cancelled. */
  readonly done: Promise<PollEnd<T>>
  cancel: () => void
  readonly active: boolean
}

export function pollTask<T> (o: PollOptions<T>): PollHandle<T> {
  const interval = o.intervalMs ?? TASK_POLL_MS
  let attempts = 0
  let last: T | null = null
  let timer: ReturnType<typeof setTimeout> | null = null
  let active = true
  let settle!: (end: PollEnd<T>) => void
  const done = new Promise<PollEnd<T>>(resolve => { settle = resolve })
  const finish = (end: PollEnd<T>) => {
    if (!active) return
    active = false
    if (timer !== null) clearTimeout(timer)
    timer = null
    settle(end)
  }
  const tick = async () => {
    timer = null
    if (!active) return
    attempts++
    let answer: T
    try {
      answer = await o.query()
    } catch (error) {
      if (!active) return
      if (o.isFatal ? o.isFatal(error) : true) return finish({ status: 'failed', result: last, error, attempts })
      o.onProgress?.({ answer: last, attempts, error })
      timer = setTimeout(() => { void tick() }, interval)
      return
    }
    // an answer that arrives after a cancel changes nothing
    if (!active) return
    last = answer
    o.onProgress?.({ answer, attempts })
    const verdict = o.judge(answer)
    if (verdict === 'done') return finish({ status: 'done', result: answer, attempts })
    if (verdict === 'failed') return finish({ status: 'failed', result: answer, error: null, attempts })
    timer = setTimeout(() => { void tick() }, interval)
  }
  timer = setTimeout(() => { void tick() }, interval)
  return {
    done,
    cancel: () => finish({ status: 'cancelled', result: last, attempts }),
    get active () { return active }
  }
}
