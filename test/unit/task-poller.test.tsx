/**
 * The tasks' polling state machine (src/utils/taskPoller.ts, useTaskPoll) with fake timers, and the
 * payload and stop rules of the task calls (src/services/tasks.ts): polls every 2000 ms (none before),
 * stops at done and failed as spec 4 says for each kind, keeps polling any other status with no cap,
 * rides out transient failures, and stops on cancel and when the page unmounts.
 */
import { render, act, cleanup } from '@testing-library/react'
import { useEffect } from 'react'
import { pollTask, type PollEnd } from '@/utils/taskPoller'
import { useTaskPoll } from '@/pagesA/editor/useTaskPoll'
import { isFatalTaskError, judgePdf, judgeStatus, tasksApi, videoBody } from '@/services/tasks'
import { ApiError, RequestError } from '@/services/errors'
import * as request from '@/services/request'

afterEach(() => { cleanup(); jest.useRealTimers(); jest.restoreAllMocks() })

/** Advances the fake clock by `ms` and lets the promises it set off settle. */
const advance = async (ms: number) => { await act(async () => { await jest.advanceTimersByTimeAsync(ms) }) }

describe('pollTask', () => {
  beforeEach(() => { jest.useFakeTimers() })

  test('succeeds: the first poll 2000 ms after creation, then every 2000 ms until done; progress each time', async () => {
    const answers = [{ state: 0 }, { state: 2 }, { state: 1 }]
    const query = jest.fn(async () => answers.shift()!)
    const progress: number[] = []
    const h = pollTask({ query, judge: judgePdf, onProgress: p => progress.push(p.answer!.state) })
    await jest.advanceTimersByTimeAsync(1999)
    expect(query).not.toHaveBeenCalled()
    await jest.advanceTimersByTimeAsync(1)
    expect(query).toHaveBeenCalledTimes(1)
    await jest.advanceTimersByTimeAsync(1999)
    expect(query).toHaveBeenCalledTimes(1)
    await jest.advanceTimersByTimeAsync(1)
    expect(query).toHaveBeenCalledTimes(2)
    await jest.advanceTimersByTimeAsync(2000)
    await expect(h.done).resolves.toEqual({ status: 'done', result: { state: 1 }, attempts: 3 })
    expect(progress).toEqual([0, 2, 1])
    // nothing after the end
    await jest.advanceTimersByTimeAsync(20000)
    expect(query).toHaveBeenCalledTimes(3)
    expect(h.active).toBe(false)
  })

  test('fails: PDF state below 0, and video or music `failed`, stop with the result', async () => {
    const pdf = pollTask({ query: async () => ({ state: -1 }), judge: judgePdf })
    await jest.advanceTimersByTimeAsync(2000)
    await expect(pdf.done).resolves.toEqual({ status: 'failed', result: { state: -1 }, error: null, attempts: 1 })
    const answers: Array<'running' | 'failed'> = ['running', 'failed']
    const video = pollTask({ query: async () => ({ status: answers.shift()! }), judge: judgeStatus })
    await jest.advanceTimersByTimeAsync(2000)
    expect(video.active).toBe(true)
    await jest.advanceTimersByTimeAsync(2000)
    await expect(video.done).resolves.toMatchObject({ status: 'failed', result: { status: 'failed' }, attempts: 2 })
  })

  test('keeps polling any other status with no cap on attempts (1000 polls over 2000 s)', async () => {
    const query = jest.fn(async () => ({ status: 'running' as const }))
    const h = pollTask({ query, judge: judgeStatus })
    await jest.advanceTimersByTimeAsync(2000 * 1000)
    expect(query).toHaveBeenCalledTimes(1000)
    expect(h.active).toBe(true)
    h.cancel()
    await expect(h.done).resolves.toEqual({ status: 'cancelled', result: { status: 'running' }, attempts: 1000 })
    await jest.advanceTimersByTimeAsync(10000)
    expect(query).toHaveBeenCalledTimes(1000)
  })

  test('cancel stops at once, even with a poll in flight whose answer comes later', async () => {
    let answer: (v: { status: 'succeeded' }) => void = () => undefined
    const query = jest.fn(() => new Promise<{ status: 'succeeded' }>(resolve => { answer = resolve }))
    const ends: Array<PollEnd<{ status: 'succeeded' }>> = []
    const h = pollTask({ query, judge: judgeStatus })
    void h.done.then(e => ends.push(e))
    await jest.advanceTimersByTimeAsync(2000)
    h.cancel()
    answer({ status: 'succeeded' })
    await jest.advanceTimersByTimeAsync(10000)
    expect(ends).toEqual([{ status: 'cancelled', result: null, attempts: 1 }])
    expect(query).toHaveBeenCalledTimes(1)
  })

  test('a transient failure keeps polling, a fatal one stops as failed', async () => {
    const seq: Array<() => unknown> = [
      () => { throw new RequestError('Network Error', 'ERR_NETWORK') },
      () => { throw new ApiError(502, 'video is unavailable', { provider: 'video' }) },
      () => ({ status: 'running' }),
      () => { throw new ApiError(404, 'No such task', null) }
    ]
    const query = jest.fn(async () => seq.shift()!() as { status: 'running' })
    const progress: unknown[] = []
    const h = pollTask({ query, judge: judgeStatus, isFatal: isFatalTaskError, onProgress: p => progress.push(p.error ? 'error' : p.answer) })
    await jest.advanceTimersByTimeAsync(8000)
    const end = await h.done
    expect(end).toMatchObject({ status: 'failed', result: { status: 'running' }, attempts: 4 })
    expect((end as { error: ApiError }).error.code).toBe(404)
    expect(progress).toEqual(['error', 'error', { status: 'running' }])
  })
})

describe('useTaskPoll', () => {
  beforeEach(() => { jest.useFakeTimers() })

  function Probe ({ onView, spec }: { onView: (v: unknown) => void; spec: Parameters<ReturnType<typeof useTaskPoll<string, { state: number }>>['start']>[0] }) {
    const task = useTaskPoll<string, { state: number }>()
    useEffect(() => { void task.start(spec).catch(() => undefined) }, [])
    useEffect(() => { onView(task.view) }, [task.view])
    return <button onClick={task.cancel}>cancel</button>
  }

  test('creates, shows progress, ends done', async () => {
    const states = [2, 2, 1]
    const views: Array<{ phase: string; answer?: { state: number } | null }> = []
    render(<Probe onView={v => views.push(v as never)} spec={{ create: async () => 'task-1', query: async id => { expect(id).toBe('task-1'); return { state: states.shift()! } }, judge: judgePdf }} />)
    await advance(0)
    const seen: string[] = []
    for (let i = 0; i < 3; i++) {
      await advance(2000)
      const v = views.at(-1)!
      seen.push(`${v.phase}:${v.answer?.state ?? '-'}`)
    }
    expect(seen).toEqual(['polling:2', 'polling:2', 'done:1'])
    expect(views.slice(0, 3).map(v => v.phase)).toEqual(['idle', 'starting', 'polling'])
    expect(views.at(-1)).toMatchObject({ phase: 'done', answer: { state: 1 } })
  })

  test('stops polling when the page unmounts', async () => {
    const query = jest.fn(async () => ({ state: 2 }))
    const { unmount } = render(<Probe onView={() => undefined} spec={{ create: async () => 't', query, judge: judgePdf }} />)
    await advance(4000)
    expect(query).toHaveBeenCalledTimes(2)
    unmount()
    await advance(20000)
    expect(query).toHaveBeenCalledTimes(2)
  })

  test('stops polling when the user cancels', async () => {
    const query = jest.fn(async () => ({ state: 0 }))
    const views: Array<{ phase: string }> = []
    const { getByText } = render(<Probe onView={v => views.push(v as never)} spec={{ create: async () => 't', query, judge: judgePdf }} />)
    await advance(2000)
    expect(query).toHaveBeenCalledTimes(1)
    await act(async () => { getByText('cancel').click() })
    await advance(20000)
    expect(query).toHaveBeenCalledTimes(1)
    expect(views.at(-1)!.phase).toBe('cancelled')
  })
})

describe('the task calls\' payload and stop rules', () => {
  test('bodies as the spec says', async () => {
    const post = jest.spyOn(request, 'postRoute').mockResolvedValue({} as never)
    await tasksApi.pdf2image('/media/u/x.pdf')
    await tasksApi.queryPdf('abc')
    await tasksApi.text2video({ text: ' a promo ' })
    await tasksApi.text2video({ prompt: 'only a prompt' })
    await tasksApi.text2video({ text: '  ', prompt: 'the prompt then' })
    await tasksApi.queryVideo('v1')
    await tasksApi.text2music('happy\tjingle\nfor  boxes\r\nand   more ')
    await tasksApi.queryMusic(['m1', 'm2'])
    expect(post.mock.calls.map(c => [c[0], c[1]])).toEqual([
      ['/api/pdf2image', { url: '/media/u/x.pdf', format: 'pdf-to-image' }],
      ['/api/queryPDF2ImageTask', { taskId: 'abc' }],
      ['/api/text2video', { text: 'a promo' }],
      ['/api/text2video', { prompt: 'only a prompt' }],
      ['/api/text2video', { prompt: 'the prompt then' }],
      ['/api/queryVideo', { id: 'v1' }],
      ['/api/text2music', { prompt: 'happy,jingle,for,boxes,and,more' }],
      ['/api/queryMusic', { item_ids: ['m1', 'm2'] }]
    ])
    expect(videoBody({ text: 'x', prompt: 'y' })).toEqual({ text: 'x' })
  })

  test('stop rules: PDF 1 done, below 0 failed, else on; video and music succeeded / failed, else on', () => {
    expect([1, -1, -2, 0, 2, 3].map(state => judgePdf({ state }))).toEqual(['done', 'failed', 'failed', 'continue', 'continue', 'continue'])
    expect((['succeeded', 'failed', 'running'] as const).map(status => judgeStatus({ status }))).toEqual(['done', 'failed', 'continue'])
  })

  test('which failed polls end the task', () => {
    expect(isFatalTaskError(new ApiError(404, 'gone', null))).toBe(true)
    expect(isFatalTaskError(new ApiError(401, 'login', null))).toBe(true)
    expect(isFatalTaskError(new ApiError(502, 'outage', null))).toBe(false)
    expect(isFatalTaskError(new ApiError(429, 'slow down', null))).toBe(false)
    expect(isFatalTaskError(new RequestError('Network Error', 'ERR_NETWORK'))).toBe(false)
    expect(isFatalTaskError(new RequestError('timeout', 'ECONNABORTED'))).toBe(false)
    expect(isFatalTaskError(new RequestError('Request failed with status code 404', 'ERR_BAD_REQUEST', 404))).toBe(true)
  })
})
