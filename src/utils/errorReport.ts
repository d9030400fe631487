/**
 * Uncaught errors and unhandled rejections (spec 8): always logged; posted to /error/report and to
 * the configured URL only when configuration enables reporting. A URL in the message or the path keeps
 * its query keys but not their values (./redactUrl.ts) before the report leaves the device.
 */
import Taro from '@tarojs/taro'
import type { ErrorReport } from '~types/accounts'
import { REQUEST_ID_PATTERN } from '~types/limits'
import { getConfig, isH5 } from '@/config'
import { rawRequest } from '@/services/request'
import { currentRoute } from './navigation'
import { redactUrls } from './redactUrl'

export type ErrorKind = 'error' | 'unhandledrejection'

function messageOf (reason: unknown): string {
  if (reason instanceof Error) return reason.stack || `${reason.name}: ${reason.message}`
  if (typeof reason === 'string') return reason
  // JSON.stringify(undefined) is undefined (a promise rejected with nothing): say so instead
  try { return JSON.stringify(reason) ?? String(reason) } catch { return String(reason) }
}

const REQUEST_ID = new RegExp(REQUEST_ID_PATTERN)
function requestIdFrom (reason: unknown): string | undefined {
  const id = (reason as { requestId?: unknown } | null)?.requestId
  return typeof id === 'string' && REQUEST_ID.test(id) ? id : undefined
}

function pathNow (): string {
  try {
    const p = currentRoute().path
    if (p) return p
  } catch { /* no page yet */ }
  return isH5() && typeof location !== 'undefined' ? location.pathname : ''
}

export function buildReport (reason: unknown, type: ErrorKind): ErrorReport {
  const cfg = getConfig()
  return {
    // cut before redacting too, so a huge message costs little; what remains of a cut query is still one
    error_message: redactUrls(messageOf(reason).slice(0, 8000)).slice(0, 4000),
    path: redactUrls(pathNow()),
    type,
    sub_source: process.env.TARO_ENV || 'unknown',
    app_id: cfg.appId,
    // an error from a call names it: the server's log has that request under this id
    ...(requestIdFrom(reason) ? { request_id: requestIdFrom(reason) } : {})
  }
}

/** At most this many reports are posted per minute, so an error in a render loop cannot flood. */
export const MAX_REPORTS_PER_MINUTE = 20
let windowStart = 0
let sentInWindow = 0

function underCap (now = Date.now()): boolean {
  if (now - windowStart >= 60000) { windowStart = now; sentInWindow = 0 }
  sentInWindow += 1
  return sentInWindow <= MAX_REPORTS_PER_MINUTE
}

/** Logs the error; posts it when enabled. Never throws; a failed post is not reported again. */
export async function reportError (reason: unknown, type: ErrorKind): Promise<ErrorReport> {
  const report = buildReport(reason, type)
  console.error(`[${type}]`, report.error_message)
  const cfg = getConfig()
  if (!cfg.errorReportEnabled || !underCap()) return report
  const posts: Promise<unknown>[] = [rawRequest({ url: '/error/report', method: 'POST', data: report })]
  if (cfg.errorReportUrl) {
    posts.push(rawRequest({ url: cfg.errorReportUrl, method: 'POST', data: report, external: true }))
  }
  await Promise.allSettled(posts)
  return report
}

let installed = false

export function installErrorReporting (): void {
  if (installed) return
  installed = true
  if (isH5() && typeof window !== 'undefined') {
    window.addEventListener('error', e => { void reportError(e.error ?? e.message, 'error') })
    window.addEventListener('unhandledrejection', e => { void reportError(e.reason, 'unhandledrejection') })
    return
  }
  Taro.onError?.(msg => { void reportError(msg, 'error') })
  Taro.onUnhandledRejection?.(res => { void reportError(res.reason, 'unhandledrejection') })
}
