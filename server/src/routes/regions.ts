/** The region picker's lists (types/regions.ts). */
import { regionRoutes as r } from '../../../types/regions'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { regionChildren } from '../domain/account/regions'

export function regionRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.regions, async ({ body }) => ({ list: regionChildren(body.parent) }))
}
