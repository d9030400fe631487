/**
 * One error handler for the whole app: ApiFailure and schema errors become envelopes (HTTP 200),
 * client mistakes Fastify detects (bad JSON, body too large ...) become a 400 envelope, anything else
 * is logged and answered with HTTP 500 (an infrastructure failure for the client).
 */
import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { localeFrom, translate, type Locale, type MessageKey } from '../i18n/messages'
import { ApiFailure } from '../core/errors'
import { envelopeOf } from './envelope'
import { validationFailure, type SchemaError } from './validation'

const FASTIFY_CLIENT_ERRORS: Record<string, MessageKey> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'request.invalidJson',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'request.invalidJson',
  FST_ERR_CTP_BODY_TOO_LARGE: 'request.bodyTooLarge',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'request.unsupportedMediaType',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'request.bad'
}

function toFailure (error: FastifyError): ApiFailure | null {
  if (error instanceof ApiFailure) return error
  if (error.validation) {
    const root = error.validationContext === 'querystring' ? 'query' : (error.validationContext ?? 'body')
    return validationFailure(error.validation as unknown as SchemaError[], root)
  }
  const status = error.statusCode ?? 500
  if (status === 429) return new ApiFailure(429, 'request.rateLimited', { seconds: 60 })
  if (status >= 400 && status < 500) {
    // SyntaxError from the JSON parser carries statusCode 400 without a Fastify code
    const key = FASTIFY_CLIENT_ERRORS[error.code] ?? (error instanceof SyntaxError ? 'request.invalidJson' : 'request.bad')
    return new ApiFailure(400, key)
  }
  return null
}

/**
 * Sends a failure envelope as JSON text: a route's response schema describes its successful answer
 * (and would strip or refuse a failure's `data`), so failures bypass the route's serialiser.
 */
export function sendEnvelope (reply: FastifyReply, request: FastifyRequest, failure: ApiFailure): FastifyReply {
  request.failure = failure
  return reply.code(failure.httpStatus).type('application/json; charset=utf-8').send(JSON.stringify(envelopeOf(request, failure)))
}

/** Whether the error is answered as the client's failure (not the server's 5xx). */
export function isClientFailure (error: FastifyError): boolean {
  const failure = toFailure(error)
  return !!failure && failure.httpStatus < 500
}

/** The app's answer to an error: its envelope (a failure the client made or was told), else a logged 500. */
export function answerError (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const failure = toFailure(error)
  if (failure) {
    if (failure.httpStatus >= 500) request.log.warn({ err: error.cause ?? error }, `handled failure: ${failure.key}`)
    return sendEnvelope(reply, request, failure)
  }
  request.log.error({ err: error }, 'unhandled error')
  return sendEnvelope(reply, request, new ApiFailure(500, 'request.internal', {}, null, 500))
}

export function installErrorHandling (app: FastifyInstance, isApiPath: (url: string) => boolean, sendPageDocument: ((reply: FastifyReply, url: string) => FastifyReply) | null): void {
  app.setErrorHandler(answerError)

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const url = request.url
    if (isApiPath(url)) {
      return sendEnvelope(reply, request, new ApiFailure(404, 'request.notFound'))
    }
    // history-mode fallback: a page route of the H5 app gets its document (static.ts: its own, else index.html)
    const wantsHtml = (request.headers.accept ?? '').includes('text/html')
    if (sendPageDocument && (request.method === 'GET' || request.method === 'HEAD') && wantsHtml) {
      return sendPageDocument(reply, url)
    }
    return sendEnvelope(reply, request, new ApiFailure(404, 'request.notFound', {}, null, 404))
  })
}

/** Connections already refused: the parser may report an error again for bytes that follow. */
const refusedSockets = new WeakSet<Socket>()

/**
 * The language of a request Node's parser refused: the Accept-Language of the request in flight on the
 * connection (bytes after a body shorter than its Content-Length are refused once that request was
 * read), else the one in the bytes the parser was reading (headers over the size limit), else English.
 */
function refusedRequestLocale (error: Error & { rawPacket?: unknown }, inFlight: ServerResponse | undefined): Locale {
  const header = inFlight?.req?.headers['accept-language']
  if (header !== undefined) return localeFrom(header)
  if (Buffer.isBuffer(error.rawPacket)) {
    const head = error.rawPacket.subarray(0, 64 * 1024).toString('latin1')
    const found = /(?:^|\r\n)accept-language[ \t]*:[ \t]*([^\r\n]*)/i.exec(head)
    if (found) return localeFrom(found[1])
  }
  return localeFrom(undefined)
}

/**
 * Errors before routing answer the envelope too. Node's HTTP parser refuses a request it cannot read
 * (bytes after a body shorter than its Content-Length, a broken request line, headers over the size
 * limit) before Fastify sees it: the connection gets a 400 (431 for oversized headers) carrying the
 * envelope in the request's language, then closes. A request read before the refused bytes (the one
 * whose Content-Length was short) is answered first: its handler may have moved money, and the client
 * should hear how it ended.
 */
export function clientErrorHandler (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (refusedSockets.has(socket)) return
  refusedSockets.add(socket)
  if (!socket.writable) { socket.destroy(); return }
  // Node's own pointer to the answer being written on this connection (its default handler reads it too)
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined
  const headersTooLarge = error.code === 'HPE_HEADER_OVERFLOW'
  const status = headersTooLarge ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400
  const reason = headersTooLarge ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request'
  const key: MessageKey = headersTooLarge ? 'request.headersTooLarge' : 'request.bad'
  const body = JSON.stringify({ code: 400, message: translate(refusedRequestLocale(error, inFlight), key), data: null })
  const refuse = () => {
    if (!socket.writable) { socket.destroy(); return }
    socket.end([
      `HTTP/1.1 ${status} ${reason}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      '',
      body
    ].join('\r\n'))
  }
  // (only a request read to its end can still be answered: one cut short by the connection's end cannot)
  if (inFlight && inFlight.req?.complete && !inFlight.writableFinished && !inFlight.destroyed) {
    let done = false
    const once = () => { if (!done) { done = true; refuse() } }
    inFlight.once('finish', once)
    inFlight.once('close', once)
  } else {
    refuse()
  }
}

/** Fastify's own errors before a route runs (a malformed URL encoding, say): the 400 envelope. */
export function frameworkErrors (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.info({ err: error }, 'request refused before routing')
  // the onRequest hook that sets the locale has not run
  request.locale = localeFrom(request.headers['accept-language'])
  void sendEnvelope(reply, request, new ApiFailure(400, 'request.bad'))
}
