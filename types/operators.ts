/**
 * Roles and the audit log (issue 10, PRODUCT.md "Who uses it"): operators find accounts (by user name,
 * phone or e-mail, shown masked), grant or revoke the operator role (never their own, never the last
 * operator's), and read the audit log of every operator change with the state before and after.
 */
import { Type, type Static } from 'typebox'
import { route } from './api'
import { OPERATOR_LIMITS, PAGE_MAX } from './limits'
import { Id, Nullable, Obj, PageResult, Text, Timestamp } from './schema'
import { Role } from './accounts'

const Page = Type.Integer({ minimum: 1, maximum: PAGE_MAX })
const Size = Type.Integer({ minimum: 1, maximum: OPERATOR_LIMITS.pageSizeMax })

// ---- users and roles --------------------------------------------------------------------------------

export const OperatorUserListRequest = Obj({
  page: Page,
  size: Size,
  /** A user name, phone or e-mail address, or a part of one; absent: every account. */
  query: Type.Optional(Text({ maxLength: OPERATOR_LIMITS.userQueryMax })),
  role: Type.Optional(Role)
})
export type OperatorUserListRequest = Static<typeof OperatorUserListRequest>

export const OperatorUserView = Type.Object({
  id: Type.Integer(),
  userName: Nullable(Type.String()),
  nickname: Type.String(),
  /** Masked: 138****0001. */
  phone: Nullable(Type.String()),
  /** Masked: s***@example.com. */
  email: Nullable(Type.String()),
  role: Role,
  createdAt: Timestamp,
  /** The caller's own account (whose role they cannot take away). */
  self: Type.Boolean()
})
export type OperatorUserView = Static<typeof OperatorUserView>

export const RoleSaveRequest = Obj({ userId: Id, role: Role })
export type RoleSaveRequest = Static<typeof RoleSaveRequest>

// ---- the audit log ------------------------------------------------------------------------------------

export const AuditListRequest = Obj({
  page: Page,
  size: Size,
  /** Only changes of this kind of thing (series, recipe, setting, user, shipment, withdrawal ...). */
  entity: Type.Optional(Type.String({ pattern: OPERATOR_LIMITS.auditEntityPattern })),
  /** Only changes made by this account. */
  actorId: Type.Optional(Id)
})
export type AuditListRequest = Static<typeof AuditListRequest>

export const AuditActor = Type.Object({ id: Type.Integer(), name: Type.String() })
export type AuditActor = Static<typeof AuditActor>

export const AuditEntryView = Type.Object({
  id: Type.Integer(),
  at: Timestamp,
  /** null: the system (OPERATOR_ACCOUNTS at start-up, an automatic step) or a deleted account. */
  actor: Nullable(AuditActor),
  action: Type.String({ description: 'e.g. role.grant, settings.update, recipe.create, series.update' }),
  entity: Type.String(),
  entityId: Nullable(Type.Integer()),
  /** The state before the change (null: created). */
  before: Type.Unknown(),
  /** The state after the change (null: removed). */
  after: Type.Unknown(),
  /** Whatever else the entry records (e.g. the shopper of a withdrawal). */
  context: Type.Record(Type.String(), Type.Unknown())
})
export type AuditEntryView = Static<typeof AuditEntryView>

export const AuditListResponse = Type.Object({
  ...PageResult(AuditEntryView).properties,
  /** Every entity and every actor the log has, for the filters. */
  entities: Type.Array(Type.String()),
  actors: Type.Array(AuditActor)
})
export type AuditListResponse = Static<typeof AuditListResponse>

// ---- the calls ------------------------------------------------------------------------------------------

const tag = 'operator'
export const operatorRoleRoutes = {
  users: route({
    method: 'POST', url: '/api/operator/users', auth: 'operator', tag, body: OperatorUserListRequest, data: PageResult(OperatorUserView),
    summary: 'Find accounts by user name, phone or e-mail (masked in the answer)', description: 'Operators first, then by id; `role` lists one role only.'
  }),
  roleSave: route({
    method: 'POST', url: '/api/operator/roleSave', auth: 'operator', tag, body: RoleSaveRequest, data: OperatorUserView,
    summary: 'Grant or revoke the operator role (audited)',
    description: '422 for the caller\'s own role and for the last operator; the same role again changes nothing and writes no audit entry.'
  }),
  audit: route({
    method: 'POST', url: '/api/operator/audit', auth: 'operator', tag, body: AuditListRequest, data: AuditListResponse,
    summary: 'The audit log, newest first: who, when, what, before and after'
  })
}
