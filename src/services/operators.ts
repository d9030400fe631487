/** Roles and the audit log (types/operators.ts): the operators' user search, role changes, the audit log. */
import type { AuditListRequest, OperatorUserListRequest, RoleSaveRequest, operatorRoleRoutes } from '~types/operators'
import { postRoute } from './request'

type R = typeof operatorRoleRoutes

export const operatorRoleApi = {
  users: (q: OperatorUserListRequest) => postRoute<R['users']>('/api/operator/users', q),
  roleSave: (body: RoleSaveRequest) => postRoute<R['roleSave']>('/api/operator/roleSave', body),
  audit: (q: AuditListRequest) => postRoute<R['audit']>('/api/operator/audit', q)
}
