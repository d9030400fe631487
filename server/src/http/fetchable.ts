/**
 * The URLs of a request that a provider will fetch, checked before anything is spent
 * (security/fetchableUrl.ts): the first one refused is a 400 naming its field and why.
 */
import type { FastifyRequest } from 'fastify'
import type { AppContext } from '../context'
import { refuseUnfetchable } from '../security/fetchableUrl'
import { fail } from '../core/errors'

/** The origin this request reached the shop at, as a URL's origin spells it (no default port). */
export function ownOrigin (request: FastifyRequest): string {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin
  } catch {
    return ''
  }
}

export async function requireFetchable (ctx: AppContext, request: FastifyRequest, urls: Array<{ field: string; url: string }>): Promise<void> {
  const check = { ownOrigin: ownOrigin(request), production: ctx.config.nodeEnv === 'production', resolve: ctx.resolveHost }
  for (const { field, url } of urls) {
    const refusal = await refuseUnfetchable(url, check)
    if (refusal) throw fail.field(field, `url.${refusal}`)
  }
}
