/**
 * The wire contract shared by the app and the server (ARCHITECTURE.md, spec section 7): the envelope,
 * the client's error codes, and how a call is described (method, path, who may call it, the schemas of
 * its request and of the `data` of its answer). Every call of the server is one `route(...)` in types/;
 * the server registers, validates, serialises and documents (OpenAPI) from it. The app imports types only.
 */
import { Type, type Static, type TSchema } from 'typebox'

/** Every handled outcome is HTTP 200 with this envelope; `code: 200` is success. */
export type ResultCode = 200 | 400 | 401 | 403 | 404 | 409 | 422 | 429

export interface ApiEnvelope<T = unknown> {
  code: ResultCode | number
  message: string
  data: T
}

/** The envelope of a successful answer whose data has the given schema. */
export const Envelope = <T extends TSchema>(data: T) => Type.Object({
  code: Type.Integer({ description: '200 on success; 400, 401, 403, 404, 409, 422 or 429 otherwise' }),
  message: Type.String({ description: 'In the language of Accept-Language (zh or en)' }),
  data
})

/** Client-side error codes (spec section 8). */
export type ClientErrorCode =
  | 'ERR_NETWORK'
  | 'ECONNABORTED'
  | 'ETIMEDOUT'
  | 'ERR_BAD_REQUEST'
  | 'ERR_BAD_RESPONSE'
  | 'ERR_CANCELED'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/**
 * Who may call: anyone (`none`); anyone, and a logged-in caller is recognised (`optional`); a logged-in
 * user (`user`, else 401); an operator (`operator`, else 401 or 403). Checked before the body is validated.
 */
export type Auth = 'none' | 'optional' | 'user' | 'operator'

export interface RouteDef {
  method: 'GET' | 'POST'
  /** The path under the API base (default /dev-api). */
  url: string
  auth: Auth
  summary: string
  description?: string
  tag: string
  body?: TSchema
  querystring?: TSchema
  /** Path parameters (a `:name` in the url). */
  params?: TSchema
  /** The schema of `data` in a successful answer. */
  data: TSchema
  /** The answer is not the envelope (a file); `data` then describes nothing. */
  raw?: { contentType: string; description: string }
  /** Only outside production. */
  devOnly?: boolean
  /** The call takes one file as multipart/form-data (Taro.uploadFile, an H5 form) in this field. */
  upload?: { field: string; maxBytes: number }
}

/** Declares a call; the literal types are kept so that request and answer types follow from it. */
export const route = <const R extends RouteDef>(def: R): R => def

type StaticOr<S, Fallback> = S extends TSchema ? Static<S> : Fallback
/** The body a call takes. */
export type BodyOf<R extends RouteDef> = StaticOr<R['body'], undefined>
/** The query string a call takes. */
export type QueryOf<R extends RouteDef> = StaticOr<R['querystring'], undefined>
/** The `data` of a call's successful answer. */
export type DataOf<R extends RouteDef> = Static<R['data']>
