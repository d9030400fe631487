/**
 * The one request client (spec 7, 8): Taro.request plus two interceptors, identical on weapp and H5.
 *
 *   outer interceptor   transport errors -> RequestError codes; our own 50 s timeout and cancellation;
 *                       HTTP 401 -> clear token, go to the app base; other non-2xx -> toast + reject;
 *                       body code 401/403 -> clear token, go to /pages/login/index (on H5 by loading it).
 *   inner interceptor   base URL, JSON, headers APP_ID / APP_TYPE / X_Env / Accept-Language,
 *                       Authorization: Bearer <h5_token> for calls to our own API.
 */
import Taro from '@tarojs/taro'
import type { ApiEnvelope, BodyOf, DataOf, HttpMethod, QueryOf, RouteDef } from '~types/api'
import { getConfig, isH5 } from '@/config'
import { APP_BASE, ENTRY_PAGE, PLATFORM_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '@/constants'
import { localeStore, t } from '@/stores/locale'
import { toast } from '@/utils/feedback'
import { browser } from '@/utils/browser'
import { currentRoute } from '@/utils/navigation'
import { tokenStorage } from './token'
import {
  ApiError, RequestError, canceledError, normaliseTransportError, statusError, timeoutError, withRequestId
} from './errors'

/** Something that can cancel a request: an AbortSignal or anything shaped like one. */
export interface CancelSignal {
  readonly aborted: boolean
  addEventListener (type: 'abort', listener: () => void): void
  removeEventListener (type: 'abort', listener: () => void): void
}

export interface RequestOptions {
  url: string
  method?: HttpMethod
  data?: unknown
  header?: Record<string, string>
  timeout?: number
  signal?: CancelSignal
  /** Binary download (e.g. an xlsx export): the body is returned as it is. */
  responseType?: 'arraybuffer'
  /** A call to somewhere else than our API (e.g. an error-report URL): no token, no envelope. */
  external?: boolean
  /** A call in the background whose caller copes with a failure (the server's clock): no toast for it. */
  quiet?: boolean
}

interface InternalParams {
  url: string
  method?: string
  data?: unknown
  header?: Record<string, string>
  timeout?: number
  responseType?: 'arraybuffer' | 'text'
  dataType?: string
  signal?: unknown
  __opts: RequestOptions
}

export interface RawResponse<T = unknown> {
  statusCode: number
  data: T
  header?: Record<string, string>
}

const isAbsolute = (url: string) => /^[a-z][a-z\d+.-]*:\/\//i.test(url)

export function buildUrl (url: string): string {
  if (isAbsolute(url)) return url
  const base = getConfig().apiBase
  return `${base}${url.startsWith('/') ? '' : '/'}${url}`
}

/** Headers of every API call; the token only goes to our own API. */
export function buildHeaders (opts: RequestOptions): Record<string, string> {
  const cfg = getConfig()
  const header: Record<string, string> = {
    'Content-Type': 'application/json',
    APP_ID: cfg.appId,
    APP_TYPE: cfg.appType,
    X_Env: cfg.env,
    'Accept-Language': localeStore.languageTag,
    ...opts.header
  }
  if (!opts.external) {
    const token = tokenStorage.get()
    if (token) header.Authorization = `Bearer ${token}`
  }
  return header
}

/** Where an HTTP 401 sends the user: the app base (the entry page). */
function goToAppBase (): void {
  if (isH5()) {
    browser.assign(APP_BASE)
  } else {
    Taro.reLaunch({ url: ENTRY_PAGE }).catch(() => undefined)
  }
}

/**
 * One trip to the login page at a time: a page whose session ended sends several calls at once, and
 * each answers 401. Parallel reLaunches left Taro's H5 router with the new URL but the old page shown.
 */
let leavingForLogin: Promise<unknown> | null = null
function goToLogin (): void {
  if (currentRoute().path === ENTRY_PAGE || leavingForLogin) return
  if (isH5()) {
    // a page still mounting could be left on screen by Taro's H5 router under the login page's URL:
    // the browser loads the login page afresh instead (nothing of the ended session is worth keeping)
    leavingForLogin = Promise.resolve()
    browser.assign(ENTRY_PAGE)
    return
  }
  leavingForLogin = Taro.reLaunch({ url: ENTRY_PAGE }).catch(() => undefined).finally(() => { leavingForLogin = null })
}

/** The timeout handed to the platform's request: 60000 ms (spec 9), or a little over a longer own timeout. */
export const platformTimeout = (own: number | undefined): number => Math.max(PLATFORM_TIMEOUT_MS, (own ?? REQUEST_TIMEOUT_MS) + 1000)

const inner: Taro.interceptor = (chain) => {
  const params = chain.requestParams as InternalParams
  const opts = params.__opts
  if (!opts) return chain.proceed(params)
  return chain.proceed({
    ...params,
    url: buildUrl(opts.url),
    method: opts.method ?? 'GET',
    data: opts.data,
    header: buildHeaders(opts),
    // The platform's own timer (spec 9: 60000 ms, longer for a call given more) is a backstop; ours
    // (outer, 50 s by default) fires first and is the same on both builds.
    timeout: platformTimeout(opts.timeout),
    dataType: opts.responseType ? 'other' : 'json',
    responseType: opts.responseType ?? 'text'
  })
}

const outer: Taro.interceptor = (chain) => {
  const params = chain.requestParams as InternalParams
  const opts = params.__opts
  if (!opts) return chain.proceed(params)
  const timeoutMs = opts.timeout ?? REQUEST_TIMEOUT_MS
  const signal = opts.signal
  if (signal?.aborted) return Promise.reject(canceledError())

  // On H5 our AbortController really stops the fetch; on weapp the task is dropped and ignored.
  const controller = isH5() && typeof AbortController !== 'undefined' ? new AbortController() : null
  const task = chain.proceed(controller ? { ...params, signal: controller.signal } : params) as Promise<RawResponse> & { abort?: () => void }

  return new Promise((resolve, reject) => {
    let settled = false
    const finish = (fn: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      fn()
    }
    const stop = () => {
      controller?.abort()
      try { task.abort?.() } catch { /* already finished */ }
    }
    const timer = setTimeout(() => finish(() => { stop(); reject(timeoutError(timeoutMs)) }), timeoutMs)
    const onAbort = () => finish(() => { stop(); reject(canceledError()) })
    signal?.addEventListener('abort', onAbort)

    task.then(
      res => finish(() => {
        try {
          resolve(handleResponse(res, opts))
        } catch (e) {
          reject(e)
        }
      }),
      err => finish(() => reject(normaliseTransportError(err)))
    )
  })
}

/**
 * The session rules every answer of the shop's API goes through, requests and uploads alike: HTTP 401
 * clears the token and goes to the app base; a body code 401 or 403 clears the token and goes to the
 * login page. Throws when they end the call; returns otherwise.
 */
export function applySessionRules (status: number, body: unknown): void {
  if (status === 401) {
    tokenStorage.clear()
    goToAppBase()
    throw statusError(401)
  }
  const envelope = body as Partial<ApiEnvelope> | null
  if (envelope && typeof envelope === 'object' && (envelope.code === 401 || envelope.code === 403)) {
    tokenStorage.clear()
    goToLogin()
    throw new ApiError(envelope.code, envelope.message || t('request.sessionExpired'), envelope.data)
  }
}

function handleResponse (res: RawResponse, opts: RequestOptions): RawResponse {
  const status = res.statusCode
  if (status === 401 && !opts.external) applySessionRules(status, null)
  if (status < 200 || status >= 300) {
    if (!opts.quiet) toast({ message: t('request.networkError') })
    throw withRequestId(statusError(status), res.header)
  }
  if (opts.external || opts.responseType) return res
  const body = res.data as Partial<ApiEnvelope> | null
  if (!body || typeof body !== 'object' || typeof body.code !== 'number') {
    throw withRequestId(new RequestError('Invalid response body', 'ERR_BAD_RESPONSE', status), res.header)
  }
  applySessionRules(status, body)
  return res
}

let installed = false

/** Installs the two interceptors once (Taro keeps them globally; first added runs outermost). */
export function installInterceptors (): void {
  if (installed) return
  installed = true
  Taro.addInterceptor(outer)
  Taro.addInterceptor(inner)
}

/** For tests that clean Taro's interceptors between cases. */
export function resetInterceptors (): void {
  Taro.cleanInterceptors()
  installed = false
  leavingForLogin = null
  installInterceptors()
}

/** The raw response after the interceptors (HTTP and body-code rules applied). */
export function rawRequest<T = unknown> (opts: RequestOptions): Promise<RawResponse<T>> {
  installInterceptors()
  const params: InternalParams = { url: opts.url, __opts: opts }
  return Taro.request(params as unknown as Taro.request.Option) as unknown as Promise<RawResponse<T>>
}

/** The envelope {code, message, data} of a call to our API; any body code. */
export async function request<T = unknown> (opts: RequestOptions): Promise<ApiEnvelope<T>> {
  const res = await rawRequest<ApiEnvelope<T>>(opts)
  return res.data
}

/** The data of a successful call; a body code other than 200 rejects with ApiError. */
export async function call<T = unknown> (opts: RequestOptions): Promise<T> {
  const res = await rawRequest<ApiEnvelope<T>>(opts)
  const body = res.data
  if (body.code !== 200) throw withRequestId(new ApiError(body.code, body.message, body.data), res.header)
  return body.data
}

export const get = <T>(url: string, data?: Record<string, unknown>, extra?: Partial<RequestOptions>) =>
  call<T>({ ...extra, url, method: 'GET', data })
export const post = <T>(url: string, data?: unknown, extra?: Partial<RequestOptions>) =>
  call<T>({ ...extra, url, method: 'POST', data })

/**
 * A call of the contract (types/): `R` is its route, so the path must be the route's, the body its
 * request type and the answer its data type. Types only: no schema code reaches the bundles.
 */
export const postRoute = <R extends RouteDef & { method: 'POST' }>(url: R['url'], body: BodyOf<R>, extra?: Partial<RequestOptions>) =>
  post<DataOf<R>>(url, body, extra)
export const getRoute = <R extends RouteDef & { method: 'GET' }>(url: R['url'], query?: QueryOf<R>, extra?: Partial<RequestOptions>) =>
  get<DataOf<R>>(url, query as Record<string, unknown> | undefined, extra)

/** A message fit to show a person for any error the client produced. */
export function errorMessage (e: unknown): string {
  if (e instanceof ApiError) return e.message
  if (e instanceof RequestError) {
    if (e.code === 'ERR_CANCELED') return t('request.canceled')
    if (e.code === 'ECONNABORTED' || e.code === 'ETIMEDOUT') return t('request.timeout')
    return t('request.networkError')
  }
  // a script or style chunk that did not arrive (webpack names the error ChunkLoadError; its message is
  // "Loading chunk 123 failed. (error: https://…)", words for developers): the network, as the shopper knows it
  if (e instanceof Error && e.name === 'ChunkLoadError') return t('request.networkError')
  return e instanceof Error ? e.message : String(e)
}
