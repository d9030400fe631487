/**
 * The one way pages load data (src/utils/useRemote.ts): loading then data, failure and retry, pages
 * appended with "no more", one page at a time whatever reach-bottom says, refresh beating an older
 * answer, pull-down refresh, and nothing done after unmount.
 */
import { render, renderHook, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { safeExecute } from '@tarojs/runtime'
import { useListPageEvents, usePagedList, useRemote, type LoadStep, type PageAnswer } from '@/utils/useRemote'

/** A promise the test settles by hand. */
function deferred<T> () {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => { resolve = res; reject = rej })
  return { promise, resolve, reject }
}

/** A page call whose answers the test gives one by one, remembering which pages were asked for. */
function pagedServer<T> () {
  const calls: { page: number; size: number; answer: ReturnType<typeof deferred<PageAnswer<T>>> }[] = []
  const load = jest.fn((page: number, size: number) => {
    const answer = deferred<PageAnswer<T>>()
    calls.push({ page, size, answer })
    return answer.promise
  })
  return { calls, load }
}

const settle = () => act(async () => { await Promise.resolve(); await Promise.resolve() })
const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i)

afterEach(() => { cleanup(); jest.restoreAllMocks() })

describe('useRemote', () => {
  test('loading, then the data', async () => {
    const answer = deferred<string>()
    const { result } = renderHook(() => useRemote(() => answer.promise, []))
    expect(result.current).toMatchObject({ loading: true, failed: false, data: undefined })
    await act(async () => { answer.resolve('hello') })
    expect(result.current).toMatchObject({ loading: false, failed: false, data: 'hello', error: null })
  })

  test('a failure, then retry succeeding; onError told once', async () => {
    const answers = [deferred<number>(), deferred<number>()]
    const onError = jest.fn()
    let n = 0
    const load = jest.fn(() => answers[n++].promise)
    const { result } = renderHook(() => useRemote(load, [], { onError }))
    const boom = new Error('down')
    await act(async () => { answers[0].reject(boom) })
    expect(result.current).toMatchObject({ loading: false, failed: true, error: boom })
    expect(onError).toHaveBeenCalledWith(boom)
    act(() => { result.current.retry() })
    // the failure stays until the retry answers (as the data does)
    expect(result.current).toMatchObject({ loading: true, failed: true })
    await act(async () => { answers[1].resolve(7) })
    expect(result.current).toMatchObject({ loading: false, failed: false, data: 7 })
    expect(load).toHaveBeenCalledTimes(2)
    expect(onError).toHaveBeenCalledTimes(1)
  })

  test('a change of deps loads again, and the older answer arriving last is dropped', async () => {
    const answers: Record<string, ReturnType<typeof deferred<string>>> = { a: deferred(), b: deferred() }
    const { result, rerender } = renderHook(({ id }) => useRemote(() => answers[id].promise, [id]), { initialProps: { id: 'a' } })
    rerender({ id: 'b' })
    await act(async () => { answers.b.resolve('B') })
    await act(async () => { answers.a.resolve('A') })
    expect(result.current.data).toBe('B')
  })

  test('enabled false loads nothing; loadOnMount false waits for reload()', async () => {
    const load = jest.fn(async () => 1)
    const off = renderHook(() => useRemote(load, [], { enabled: false }))
    const later = renderHook(() => useRemote(load, [], { loadOnMount: false }))
    await settle()
    expect(load).not.toHaveBeenCalled()
    expect(later.result.current.loading).toBe(false)
    await act(async () => { await later.result.current.reload() })
    expect(later.result.current.data).toBe(1)
    expect(off.result.current.data).toBeUndefined()
  })

  test('unmounted before the answer: nothing set, no error told, no warning', async () => {
    const error = jest.spyOn(console, 'error')
    const ok = deferred<string>()
    const bad = deferred<string>()
    const onError = jest.fn()
    let renders = 0
    function Probe ({ load }: { load: () => Promise<string> }) {
      renders++
      useRemote(load, [], { onError })
      return null
    }
    const a = render(<Probe load={() => ok.promise} />)
    const b = render(<Probe load={() => bad.promise} />)
    const before = renders
    a.unmount()
    b.unmount()
    await act(async () => { ok.resolve('late'); bad.reject(new Error('late')) })
    expect(renders).toBe(before)
    expect(onError).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
  })
})

describe('useRemote extensions', () => {
  test('onSuccess is told of each answer that counts, and not of a dropped one', async () => {
    const answers: Record<string, ReturnType<typeof deferred<string>>> = { a: deferred(), b: deferred() }
    const seen: string[] = []
    const { result, rerender } = renderHook(({ id }) => useRemote(() => answers[id].promise, [id], { onSuccess: v => seen.push(v) }), { initialProps: { id: 'a' } })
    rerender({ id: 'b' })
    await act(async () => { answers.b.resolve('B') })
    await act(async () => { answers.a.resolve('A') })
    expect(seen).toEqual(['B'])
    expect(result.current.data).toBe('B')
  })

  test('a load in steps shows each part as it lands, and stops when it no longer counts', async () => {
    const parts = [deferred<number>(), deferred<number>(), deferred<number>()]
    const asked: number[] = []
    const load = async (step: LoadStep<number[]>) => {
      const got: number[] = []
      for (let i = 0; i < parts.length; i++) {
        if (!step.live()) break
        asked.push(i)
        got.push(await parts[i].promise)
        step.partial([...got])
      }
      return got
    }
    const { result, unmount } = renderHook(() => useRemote(load, []))
    await act(async () => { parts[0].resolve(10) })
    expect(result.current).toMatchObject({ data: [10], loading: true })
    await act(async () => { parts[1].resolve(20) })
    expect(result.current).toMatchObject({ data: [10, 20], loading: true })
    const seen = result.current
    unmount()
    await act(async () => { parts[2].resolve(30) })
    // the last part landed after the unmount: not shown, and the loop asked for nothing more
    expect(result.current).toBe(seen)
    expect(asked).toEqual([0, 1, 2])
  })

  test('a step of an older load is dropped once a reload started', async () => {
    const first = deferred<number>()
    const calls: LoadStep<number[]>[] = []
    const { result } = renderHook(() => useRemote(async step => {
      calls.push(step)
      if (calls.length === 1) { step.partial([1]); await first.promise; step.partial([1, 2]); return [1, 2] }
      return [9]
    }, []))
    await settle()
    expect(result.current.data).toEqual([1])
    await act(async () => { await result.current.reload() })
    expect(result.current.data).toEqual([9])
    expect(calls[0].live()).toBe(false)
    await act(async () => { first.resolve(0) })
    expect(result.current).toMatchObject({ data: [9], loading: false })
  })
})

describe('usePagedList', () => {
  test('page 1 at mount, pages appended, "no more" after a short page', async () => {
    const server = pagedServer<number>()
    const { result } = renderHook(() => usePagedList(server.load, { pageSize: 3 }))
    expect(result.current).toMatchObject({ items: null, page: 0, loading: true, hasMore: true })
    await act(async () => { server.calls[0].answer.resolve({ list: rows(1, 3) }) })
    expect(result.current).toMatchObject({ items: [1, 2, 3], page: 1, loading: false, hasMore: true, total: 3 })
    act(() => { void result.current.loadMore() })
    expect(server.calls.map(c => [c.page, c.size])).toEqual([[1, 3], [2, 3]])
    await act(async () => { server.calls[1].answer.resolve({ list: rows(4, 2) }) })
    expect(result.current).toMatchObject({ items: [1, 2, 3, 4, 5], page: 2, hasMore: false })
    act(() => { void result.current.loadMore() })
    expect(server.calls).toHaveLength(2)
  })

  test('the total ends the list too, and `last` holds what else the answer carried', async () => {
    const server = pagedServer<number>()
    const { result } = renderHook(() => usePagedList((p, s) => server.load(p, s) as Promise<PageAnswer<number> & { counts?: number }>, { pageSize: 2 }))
    await act(async () => { server.calls[0].answer.resolve({ list: [1, 2], total: 2, counts: 9 } as PageAnswer<number>) })
    expect(result.current).toMatchObject({ items: [1, 2], total: 2, hasMore: false, last: { counts: 9 } })
  })

  test('a reach-bottom while a page is loading does not load twice (throttle passed too)', async () => {
    const server = pagedServer<number>()
    let now = 1_000_000
    jest.spyOn(Date, 'now').mockImplementation(() => now)
    const { result } = renderHook(() => {
      const list = usePagedList(server.load, { pageSize: 2 })
      useListPageEvents(list)
      return list
    })
    await act(async () => { server.calls[0].answer.resolve({ list: [1, 2], total: 10 }) })
    act(() => { safeExecute('taro-app', 'onReachBottom') })
    expect(server.calls.map(c => c.page)).toEqual([1, 2])
    now += 1000
    act(() => { safeExecute('taro-app', 'onReachBottom') })
    act(() => { void result.current.loadMore() })
    expect(server.calls.map(c => c.page)).toEqual([1, 2])
    await act(async () => { server.calls[1].answer.resolve({ list: [3, 4], total: 10 }) })
    now += 1000
    act(() => { safeExecute('taro-app', 'onReachBottom') })
    expect(server.calls.map(c => c.page)).toEqual([1, 2, 3])
  })

  test('refresh replaces the list; a late answer of the older page is dropped', async () => {
    const server = pagedServer<number>()
    const { result } = renderHook(() => usePagedList(server.load, { pageSize: 2 }))
    await act(async () => { server.calls[0].answer.resolve({ list: [1, 2], total: 6 }) })
    act(() => { void result.current.loadMore() })
    act(() => { void result.current.refresh() })
    expect(server.calls.map(c => c.page)).toEqual([1, 2, 1])
    await act(async () => { server.calls[2].answer.resolve({ list: [10, 20], total: 6 }) })
    expect(result.current).toMatchObject({ items: [10, 20], page: 1 })
    await act(async () => { server.calls[1].answer.resolve({ list: [3, 4], total: 6 }) })
    expect(result.current).toMatchObject({ items: [10, 20], page: 1, loading: false })
    // and the next page follows the refreshed one
    act(() => { void result.current.loadMore() })
    expect(server.calls.map(c => c.page)).toEqual([1, 2, 1, 2])
  })

  test('a failed page: failed and told; retry asks for that page again and appends it', async () => {
    const server = pagedServer<number>()
    const onError = jest.fn()
    const { result } = renderHook(() => usePagedList(server.load, { pageSize: 2, onError }))
    await act(async () => { server.calls[0].answer.resolve({ list: [1, 2], total: 4 }) })
    act(() => { void result.current.loadMore() })
    await act(async () => { server.calls[1].answer.reject(new Error('down')) })
    expect(result.current).toMatchObject({ items: [1, 2], failed: true, loading: false })
    expect(onError).toHaveBeenCalledTimes(1)
    act(() => { result.current.retry() })
    expect(server.calls.map(c => c.page)).toEqual([1, 2, 2])
    await act(async () => { server.calls[2].answer.resolve({ list: [3, 4], total: 4 }) })
    expect(result.current).toMatchObject({ items: [1, 2, 3, 4], failed: false, hasMore: false })
  })

  test('a failed first page: retry loads page 1', async () => {
    const server = pagedServer<number>()
    const { result } = renderHook(() => usePagedList(server.load, { pageSize: 2 }))
    await act(async () => { server.calls[0].answer.reject(new Error('down')) })
    expect(result.current).toMatchObject({ items: null, failed: true })
    act(() => { void result.current.loadMore() })
    expect(server.calls).toHaveLength(1)
    act(() => { result.current.retry() })
    await act(async () => { server.calls[1].answer.resolve({ list: [1] }) })
    expect(server.calls.map(c => c.page)).toEqual([1, 1])
    expect(result.current).toMatchObject({ items: [1], failed: false, hasMore: false })
  })

  test('a change of deps starts again from page 1; clearOnChange forgets the rows meanwhile', async () => {
    const server = pagedServer<number>()
    const { result, rerender } = renderHook(({ f }) => usePagedList(server.load, { pageSize: 2, deps: [f], clearOnChange: f !== 'keep' }), { initialProps: { f: 'a' } })
    await act(async () => { server.calls[0].answer.resolve({ list: [1, 2], total: 4 }) })
    rerender({ f: 'b' })
    expect(result.current).toMatchObject({ items: null, page: 0, loading: true })
    await act(async () => { server.calls[1].answer.resolve({ list: [5], total: 1 }) })
    rerender({ f: 'keep' })
    expect(result.current.items).toEqual([5])
    expect(server.calls.map(c => c.page)).toEqual([1, 1, 1])
  })

  test('pull-down refresh reloads page 1 and whatever else, then stops the indicator', async () => {
    const server = pagedServer<number>()
    const stop = jest.spyOn(Taro, 'stopPullDownRefresh').mockImplementation(() => Promise.resolve() as never)
    const extra = jest.fn(async () => undefined)
    const { result } = renderHook(() => {
      const list = usePagedList(server.load, { pageSize: 2 })
      useListPageEvents(list, { pullDownRefresh: extra })
      return list
    })
    await act(async () => { server.calls[0].answer.resolve({ list: [1, 2], total: 4 }) })
    let done: unknown
    act(() => { done = safeExecute('taro-app', 'onPullDownRefresh') })
    expect(server.calls.map(c => c.page)).toEqual([1, 1])
    expect(extra).toHaveBeenCalledTimes(1)
    expect(stop).not.toHaveBeenCalled()
    await act(async () => { server.calls[1].answer.resolve({ list: [7, 8], total: 4 }); await done })
    expect(stop).toHaveBeenCalledTimes(1)
    expect(result.current.items).toEqual([7, 8])
  })

  test('unmounted with a page on its way: nothing set, no error told, no warning', async () => {
    const error = jest.spyOn(console, 'error')
    const server = pagedServer<number>()
    const onError = jest.fn()
    const { result, unmount } = renderHook(() => usePagedList(server.load, { pageSize: 2, onError }))
    await act(async () => { server.calls[0].answer.resolve({ list: [1, 2], total: 4 }) })
    act(() => { void result.current.loadMore(); void result.current.refresh() })
    const seen = result.current
    unmount()
    await act(async () => { server.calls[1].answer.resolve({ list: [3, 4] }); server.calls[2].answer.reject(new Error('late')) })
    expect(result.current).toBe(seen)
    expect(onError).not.toHaveBeenCalled()
    expect(error).not.toHaveBeenCalled()
  })

  test('onSuccess is told of each page that counts', async () => {
    const server = pagedServer<number>()
    const onSuccess = jest.fn()
    const { result } = renderHook(() => usePagedList(server.load, { pageSize: 2, onSuccess }))
    await act(async () => { server.calls[0].answer.resolve({ list: [1, 2], total: 4 }) })
    act(() => { void result.current.loadMore(); void result.current.refresh() })
    await act(async () => { server.calls[1].answer.resolve({ list: [3, 4], total: 4 }) })
    await act(async () => { server.calls[2].answer.resolve({ list: [5, 6], total: 4 }) })
    expect(onSuccess.mock.calls.map(c => c[0].list)).toEqual([[1, 2], [5, 6]])
  })
})
