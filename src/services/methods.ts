/**
 * The generic call POST /api/{method_name} (types/methods.ts): one of the server's allow-listed
 * methods by name, with its parameters as the body. The client knows the same list, so a name outside
 * it fails here, without a request (the server would answer 404 anyway).
 */
import type { MethodName, MethodResults } from '~types/methods'
import { HELPER_METHOD_NAMES } from '~types/limits'
import { post, type RequestOptions } from './request'

export const METHOD_NAMES: readonly MethodName[] = HELPER_METHOD_NAMES

export function callMethod<N extends MethodName> (name: N, params: Record<string, never> = {}, extra?: Partial<RequestOptions>): Promise<MethodResults[N]> {
  if (!METHOD_NAMES.includes(name)) return Promise.reject(new Error(`unknown method: ${String(name).slice(0, 40)}`))
  return post<MethodResults[N]>(`/api/${name}`, params, extra)
}
