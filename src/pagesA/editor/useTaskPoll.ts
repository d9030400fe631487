/**
 * A page's handle on one long-running task (utils/taskPoller.ts): start it (create, then poll), see
 * its progress, cancel it; the polling ends when the page unmounts.
 */
import { useEffect, useRef, useState } from 'react'
import { pollTask, type PollEnd, type PollHandle, type Verdict } from '@/utils/taskPoller'

export type TaskView<T> =
  | { phase: 'idle' }
  | { phase: 'starting' }
  | { phase: 'polling'; answer: T | null; attempts: number; since: number }
  | { phase: 'done'; answer: T }
  | { phase: 'failed'; answer: T | null; error: unknown }
  | { phase: 'cancelled' }

export interface TaskSpec<C, T> {
  create: () => Promise<C>
  query: (created: C) => Promise<T>
  judge: (answer: T) => Verdict
  isFatal?: (error: unknown) => boolean
  intervalMs?: number
}

export function useTaskPoll<C, T> (now: () => number = Date.now) {
  const [view, setView] = useState<TaskView<T>>({ phase: 'idle' })
  const handle = useRef<PollHandle<T> | null>(null)
  const alive = useRef(true)
  const run = useRef(0)

  useEffect(() => {
    alive.current = true
    return () => {
      // the page goes: no more polls, no more state
      alive.current = false
      // a counter, not a node: the cleanup is meant to bump whatever it holds then
      // eslint-disable-next-line react-hooks/exhaustive-deps
      run.current++
      handle.current?.cancel()
      handle.current = null
    }
  }, [])

  const start = async (spec: TaskSpec<C, T>): Promise<PollEnd<T> | null> => {
    handle.current?.cancel()
    const mine = ++run.current
    const current = () => alive.current && run.current === mine
    setView({ phase: 'starting' })
    let created: C
    try {
      created = await spec.create()
    } catch (error) {
      if (current()) setView({ phase: 'failed', answer: null, error })
      throw error
    }
    if (!current()) return null
    const since = now()
    setView({ phase: 'polling', answer: null, attempts: 0, since })
    const h = pollTask<T>({
      query: () => spec.query(created),
      judge: spec.judge,
      isFatal: spec.isFatal,
      intervalMs: spec.intervalMs,
      onProgress: p => { if (current()) setView({ phase: 'polling', answer: p.answer, attempts: p.attempts, since }) }
    })
    handle.current = h
    const end = await h.done
    if (handle.current === h) handle.current = null
    if (current()) {
      if (end.status === 'done') setView({ phase: 'done', answer: end.result })
      else if (end.status === 'failed') setView({ phase: 'failed', answer: end.result, error: end.error })
      else setView({ phase: 'cancelled' })
    }
    return end
  }

  const cancel = () => {
    run.current++
    handle.current?.cancel()
    handle.current = null
    setView({ phase: 'cancelled' })
  }

  return { view, start, cancel }
}
