/**
 * One way for pages and editor tabs to load data (ARCHITECTURE "Client data"; docs/app.md "Loading
 * data in pages"): `useRemote` for one answer, `usePagedList` for a list loaded a page at a time, and
 * `useListPageEvents` to page on reach-bottom and refresh on pull-down in a page.
 *
 * Only the latest request counts: an answer that arrives after a newer request started (a refresh, a
 * filter changed), or after the component unmounted, is dropped (no setState then). Nothing here uses a
 * browser global, so it runs the same in the mini-program and on H5.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type DependencyList } from 'react'
import Taro, { usePullDownRefresh, useReachBottom } from '@tarojs/taro'
import { REACH_BOTTOM_THROTTLE_MS, throttle } from './throttle'

interface CommonOptions<T> {
  /** false: nothing is loaded (e.g. nobody logged in); turning true loads. Default true. */
  enabled?: boolean
  /** false: the first load waits for a refresh()/reload() call (a page that loads in useDidShow); a later
   *  change of deps still loads. Default true. */
  loadOnMount?: boolean
  /** Told of each failure that still counts (e.g. to toast it). */
  onError?: (error: unknown) => void
  /** Told of each answer that counts, once it is held (e.g. to fill a form's draft from it). */
  onSuccess?: (answer: T) => void
}

/**
 * Which answers still count. Each request takes the current generation (a reload takes a new one); its
 * answer is applied only if the generation is unchanged and the component is still mounted.
 */
function useGeneration () {
  const generation = useRef(0)
  const mounted = useRef(true)
  useEffect(() => {
    mounted.current = true
    // a counter, not a node: the cleanup is meant to bump whatever it holds then
    // eslint-disable-next-line react-hooks/exhaustive-deps
    return () => { mounted.current = false; generation.current++ }
  }, [])
  return useMemo(() => ({
    next: () => ++generation.current,
    now: () => generation.current,
    counts: (g: number) => mounted.current && g === generation.current
  }), [])
}

/** Runs `load` at mount (unless told not to) and whenever `deps` or `enabled` change. */
function useAutoLoad (load: (mount: boolean) => void, deps: DependencyList, enabled: boolean, loadOnMount: boolean) {
  const first = useRef(true)
  useEffect(() => {
    const mount = first.current
    first.current = false
    if (enabled && (loadOnMount || !mount)) load(mount)
    // the caller's deps decide when to load (as useEffect's own); `load` is new each render
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled, ...deps])
}

export interface Remote<T> {
  /** The last answer (kept while a reload runs and after a failed one). */
  data: T | undefined
  loading: boolean
  /** The last request failed (kept while a retry runs: `failed && !loading` is "failed, not retrying"). */
  failed: boolean
  /** What the last request failed with (null after a success). */
  error: unknown
  /** Loads again; resolves when done, never rejects (a failure is in `failed`/`error`). */
  reload: () => Promise<void>
  /** The same, for an onClick. */
  retry: () => void
  /** Changes the answer held here (e.g. one row edited in place). */
  setData: (update: (prev: T | undefined) => T | undefined) => void
}

/** What a load is told: whether its answer still counts, and a way to show part of it before it ends. */
export interface LoadStep<T> {
  /** False once a newer request started or the component unmounted: a long load may stop there. */
  live: () => boolean
  /** Shows what the load has so far (as `data`, still loading); ignored once the load no longer counts. */
  partial: (data: T) => void
}

interface RemoteState<T> { data: T | undefined; loading: boolean; failed: boolean; error: unknown }

/**
 * One answer: `useRemote(() => api.thing(id), [id])`. A load made of several calls in turn may show
 * each step as it lands with `step.partial(...)` and stop early when `step.live()` turns false.
 */
export function useRemote<T> (load: (step: LoadStep<T>) => Promise<T>, deps: DependencyList, options: CommonOptions<T> = {}): Remote<T> {
  const { enabled = true, loadOnMount = true } = options
  const latest = useRef({ load, options })
  latest.current = { load, options }
  const gen = useGeneration()
  const [state, setState] = useState<RemoteState<T>>({ data: undefined, loading: enabled && loadOnMount, failed: false, error: null })

  const reload = useCallback(async () => {
    const g = gen.next()
    setState(s => ({ ...s, loading: true }))
    const step: LoadStep<T> = {
      live: () => gen.counts(g),
      partial: data => { if (gen.counts(g)) setState(s => ({ ...s, data })) }
    }
    try {
      const data = await latest.current.load(step)
      if (!gen.counts(g)) return
      setState({ data, loading: false, failed: false, error: null })
      latest.current.options.onSuccess?.(data)
    } catch (error) {
      if (!gen.counts(g)) return
      setState(s => ({ ...s, loading: false, failed: true, error }))
      latest.current.options.onError?.(error)
    }
  }, [gen])
  useAutoLoad(() => { void reload() }, deps, enabled, loadOnMount)

  const retry = useCallback(() => { void reload() }, [reload])
  const setData = useCallback((update: (prev: T | undefined) => T | undefined) => setState(s => ({ ...s, data: update(s.data) })), [])
  return { ...state, reload, retry, setData }
}

/** What a page call answers: the rows, and how many there are in all when the server says. */
export interface PageAnswer<T> {
  list: T[]
  total?: number
}

/** The row type of a page answer. */
export type ItemOf<A> = A extends PageAnswer<infer T> ? T : never

export interface PagedOptions<A = PageAnswer<unknown>> extends CommonOptions<A> {
  pageSize: number
  /** A change (a filter) starts the list again from page 1. */
  deps?: DependencyList
  /** On a change of deps, forget the rows at once (items null) instead of keeping them until page 1 lands. */
  clearOnChange?: boolean
}

export interface PagedList<T, A extends PageAnswer<unknown> = PageAnswer<T>> {
  /** The rows so far; null before the first page arrived. */
  items: T[] | null
  /** The server's total (the rows so far when it gives none). */
  total: number
  /** The last page loaded, 0 before the first. */
  page: number
  /** The last answer that counted (for what a page call carries besides the rows: counts, filters). */
  last: A | null
  loading: boolean
  /** The last request failed (kept while a retry runs, as in useRemote). */
  failed: boolean
  error: unknown
  /** False after a short page, or once the rows reach the total. */
  hasMore: boolean
  /** Page 1 again, replacing the rows; an answer of an older request is dropped. Never rejects. */
  refresh: () => Promise<void>
  /** The next page, appended; does nothing while a page is loading or when there is no more. */
  loadMore: () => Promise<void>
  /** Repeats what failed: the next page if that failed, else page 1. */
  retry: () => void
  /** Changes the rows held here (e.g. one row edited in place). */
  setItems: (update: (items: T[]) => T[]) => void
}

interface ListState<T, A> {
  items: T[] | null
  total: number
  page: number
  last: A | null
  loading: boolean
  /** The last request failed (kept while a retry runs, as in useRemote). */
  failed: boolean
  error: unknown
  hasMore: boolean
  failedPage: number
}

const initialList = <T, A>(loading: boolean): ListState<T, A> => ({
  items: null, total: 0, page: 0, last: null, loading, failed: false, error: null, hasMore: true, failedPage: 0
})

/**
 * A list loaded a page at a time: `usePagedList((page, size) => api.list({ page, size }), { pageSize: 20, deps: [filter] })`.
 * Page 1 loads at mount and at each change of deps; `loadMore()` appends the next one.
 */
export function usePagedList<A extends PageAnswer<unknown>> (
  loadPage: (page: number, size: number) => Promise<A>,
  options: PagedOptions<A>
): PagedList<ItemOf<A>, A> {
  type T = ItemOf<A>
  const { deps = [], enabled = true, loadOnMount = true, clearOnChange = false } = options
  const latest = useRef({ loadPage, options })
  latest.current = { loadPage, options }
  const gen = useGeneration()
  const [state, setState] = useState<ListState<T, A>>(() => initialList(enabled && loadOnMount))
  // read and written synchronously: a second reach-bottom before React re-renders must see them
  const cursor = useRef({ page: 0, count: 0, hasMore: true, busy: -1 })

  const fetchPage = useCallback(async (page: number, g: number) => {
    cursor.current.busy = g
    setState(s => ({ ...s, loading: true }))
    try {
      const answer = await latest.current.loadPage(page, latest.current.options.pageSize)
      if (!gen.counts(g)) return
      const c = cursor.current
      c.busy = -1
      const list = answer.list as T[]
      c.count = page === 1 ? list.length : c.count + list.length
      c.page = page
      c.hasMore = list.length >= latest.current.options.pageSize && c.count < (answer.total ?? Infinity)
      const total = answer.total ?? c.count
      const hasMore = c.hasMore
      setState(s => ({
        items: page === 1 || !s.items ? list : [...s.items, ...list],
        total, page, last: answer, loading: false, failed: false, error: null, hasMore, failedPage: 0
      }))
      latest.current.options.onSuccess?.(answer)
    } catch (error) {
      if (!gen.counts(g)) return
      cursor.current.busy = -1
      setState(s => ({ ...s, loading: false, failed: true, error, failedPage: page }))
      latest.current.options.onError?.(error)
    }
  }, [gen])

  const refresh = useCallback(() => fetchPage(1, gen.next()), [fetchPage, gen])
  const loadMore = useCallback(async () => {
    const c = cursor.current
    if (c.busy === gen.now() || !c.hasMore || c.page === 0) return
    await fetchPage(c.page + 1, gen.now())
  }, [fetchPage, gen])

  useAutoLoad(mount => {
    if (!mount && clearOnChange) {
      cursor.current = { page: 0, count: 0, hasMore: true, busy: -1 }
      setState(initialList(true))
    }
    void refresh()
  }, deps, enabled, loadOnMount)

  const failedPage = state.failedPage
  const retry = useCallback(() => { void (failedPage > 1 ? loadMore() : refresh()) }, [failedPage, loadMore, refresh])
  const setItems = useCallback((update: (items: T[]) => T[]) => setState(s => ({ ...s, items: update(s.items ?? []) })), [])
  const { failedPage: _, ...shown } = state
  return { ...shown, refresh, loadMore, retry, setItems }
}

export interface ListPageEvents {
  /** Refresh on the page's pull-down (the page's config must set enablePullDownRefresh); a function is
   *  run beside the list's refresh (e.g. another part of the page). */
  pullDownRefresh?: boolean | (() => Promise<unknown>)
}

/**
 * In a page: the next page when the user reaches the bottom (throttled, spec 9), and pull-down refresh
 * ending with Taro.stopPullDownRefresh(). Editor tabs, which are not pages, show a "more" button instead.
 */
export function useListPageEvents (list: Pick<PagedList<unknown>, 'loadMore' | 'refresh'>, events: ListPageEvents = {}): void {
  const latest = useRef({ list, events })
  latest.current = { list, events }
  const onBottom = useMemo(() => throttle(() => { void latest.current.list.loadMore() }, REACH_BOTTOM_THROTTLE_MS), [])
  useReachBottom(onBottom)
  usePullDownRefresh(async () => {
    const { list: l, events: e } = latest.current
    if (!e.pullDownRefresh) return
    await Promise.all([l.refresh(), typeof e.pullDownRefresh === 'function' ? e.pullDownRefresh() : null])
    Taro.stopPullDownRefresh()
  })
}
