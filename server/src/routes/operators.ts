/** Roles and the audit log (types/operators.ts): the operators' user search, role changes, the audit log. */
import { operatorRoleRoutes as r } from '../../../types/operators'
import type { Api, AppContext } from '../context'
import { defineRoute } from '../http/route'
import { listAudit, listUsers, setRole } from '../domain/ops/operators'

export function operatorRoutes (app: Api, ctx: AppContext): void {
  defineRoute(app, ctx, r.users, async ({ body, userId }) => listUsers(ctx.db, userId, body))
  defineRoute(app, ctx, r.roleSave, async ({ body, userId }) => setRole(ctx.db, ctx.dialect, ctx.clock, userId, body.userId, body.role))
  defineRoute(app, ctx, r.audit, async ({ body }) => listAudit(ctx.db, body))
}
