/**
 * Registers a call of the contract (types/): its method, path and schemas come from the route's
 * definition, so the server validates requests, serialises answers (fields outside the schema never
 * leave the server) and documents them (OpenAPI) from the one source.
 *
 * Authorization runs in the route's onRequest hook, before the body is even read (let alone parsed or
 * validated): an anonymous caller of a `user` route gets 401 and a shopper calling an `operator` route
 * 403, never a 400 about a field, a 415 about a content type or a 413 about a size, whatever the route
 * takes (JSON, a file upload, raw bytes). test/server/operator-routes.test.ts holds every route to it.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { Envelope, type Auth, type BodyOf, type DataOf, type QueryOf, type RouteDef } from '../../../types/api'
import type { Api, AppContext } from '../context'
import type { ActiveSession } from '../domain/account/sessions'
import { fail } from '../core/errors'
import { ok } from './envelope'
import { answerError, isClientFailure, sendEnvelope } from './errors'
import { currentSession, requireSession, sessionStillLive } from './request'

/** The session a handler gets: always one on `user` and `operator` routes. */
type SessionFor<A extends Auth> = A extends 'user' | 'operator' ? ActiveSession : A extends 'optional' ? ActiveSession | null : null

export interface CallContext<R extends RouteDef> {
  request: FastifyRequest<{ Body: BodyOf<R>; Querystring: QueryOf<R> }>
  reply: FastifyReply
  body: BodyOf<R>
  query: QueryOf<R>
  session: SessionFor<R['auth']>
  /** The caller's user id (0 on routes without a session). */
  userId: number
}

type Handler<R extends RouteDef> = (call: CallContext<R>) => Promise<R['raw'] extends object ? FastifyReply : DataOf<R>>

/** The Fastify schema of a route: request parts, the answer's envelope, and what OpenAPI shows. */
export function fastifySchema (def: RouteDef): Record<string, unknown> {
  const schema: Record<string, unknown> = {
    summary: def.summary,
    tags: [def.tag],
    ...(def.description ? { description: def.description } : {}),
    ...(def.body ? { body: def.body } : {}),
    ...(def.querystring ? { querystring: def.querystring } : {}),
    ...(def.params ? { params: def.params } : {}),
    ...(def.auth === 'none' ? {} : { security: def.auth === 'optional' ? [{}, { bearer: [] }] : [{ bearer: [] }] })
  }
  schema.response = responseSchema(def)
  return schema
}

/** A route's answer schema, made once per route: the same object each build (http/compilers.ts compiles it once). */
const responses = new WeakMap<RouteDef, Record<string, unknown>>()
function responseSchema (def: RouteDef): Record<string, unknown> {
  let response = responses.get(def)
  if (!response) {
    response = def.raw
      ? { 200: { description: def.raw.description, content: { [def.raw.contentType]: { schema: { type: 'string', format: 'binary' } } } } }
      : { 200: { description: 'The envelope; `data` as below when `code` is 200 (a failure carries its own `data`)', ...Envelope(def.data) } }
    responses.set(def, response)
  }
  return response
}

/** What OpenAPI shows of an upload's request: one binary part in the route's field. */
function uploadDoc (upload: NonNullable<RouteDef['upload']>) {
  return ({ schema, url }: { schema: unknown; url: string }) => ({
    url,
    schema: {
      ...(schema as Record<string, unknown>),
      consumes: ['multipart/form-data'],
      body: {
        type: 'object',
        required: [upload.field],
        properties: { [upload.field]: { type: 'string', format: 'binary', description: `At most ${upload.maxBytes} bytes` } }
      }
    }
  })
}

async function authorize (request: FastifyRequest, ctx: AppContext, auth: Auth, rechecked: boolean): Promise<void> {
  if (auth === 'user') {
    await requireSession(request, ctx, rechecked)
  } else if (auth === 'operator') {
    const { user } = await requireSession(request, ctx)
    if (user.role !== 'operator') throw fail.forbidden('auth.operatorOnly')
  } else if (auth === 'optional') {
    await currentSession(request, ctx)
  }
}

export interface RouteOptions {
  bodyLimit?: number
  /**
   * A credential other than a session that also lets a caller in (GET /metrics: the scraper's token),
   * checked first, in the same hook; the handler then has no session (it must not need one).
   */
  admit?: (request: FastifyRequest) => boolean
  /**
   * The handler passes the session on to a statement that checks it again and refuses an ended one with
   * 401, changing nothing (shop_purchase, migration 0033): on a `user` route, a session the process read
   * lately then lets the caller in without asking the database again (SessionService.resolveRechecked).
   * Any other refusal of such a request (its body's 400 included) is given only after a fresh read finds
   * the session live, else 401: callers see what they would have seen had the session been read first.
   */
  sessionRechecked?: boolean
}

/** Registers one call of the contract on the API scope. */
export function defineRoute<const R extends RouteDef> (app: Api, ctx: AppContext, def: R, handler: Handler<R>, options: RouteOptions = {}): void {
  if (def.devOnly && ctx.config.isProduction) return
  app.route({
    method: def.method,
    url: def.url,
    schema: fastifySchema(def),
    ...(options.bodyLimit ? { bodyLimit: options.bodyLimit } : {}),
    ...(def.auth === 'none' ? {} : {
      onRequest: async (request: FastifyRequest) => {
        if (options.admit?.(request)) return
        await authorize(request, ctx, def.auth, options.sessionRechecked === true)
      }
    }),
    // let in on a remembered session, a request is refused (400 for its body, or any other refusal) only
    // once a fresh read says the session is still live; else 401, as if the session had been read first
    // (a server failure stays what it is)
    ...(options.sessionRechecked ? {
      errorHandler: async (error: FastifyError, request: FastifyRequest, reply: FastifyReply) =>
        !isClientFailure(error) || await sessionStillLive(request, ctx) ? answerError(error, request, reply) : sendEnvelope(reply, request, fail.unauthorized())
    } : {}),
    // a file upload is read by its handler (request.file()); OpenAPI shows it as multipart/form-data
    ...(def.upload ? { config: { swaggerTransform: uploadDoc(def.upload) } } : {}),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const session = (def.auth === 'none' ? null : request.session ?? null) as SessionFor<R['auth']>
      const result = await handler({
        request: request as CallContext<R>['request'],
        reply,
        body: request.body as BodyOf<R>,
        query: request.query as QueryOf<R>,
        session,
        userId: session ? Number(session.user.id) : 0
      })
      return def.raw ? result : ok(request, result)
    }
  })
}
