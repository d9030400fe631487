/**
 * The generic table API (spec 7, PRODUCT.md): POST /api/data/invoke?table=&method= with the param
 * as body, and POST /api/data/export?table= answering an xlsx file. See data/tables.ts for the
 * allow-list and the ownership rule.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyRequest } from 'fastify'
import { dataRoutes as r } from '../../../types/data'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { currentSession, enforceLimits } from '../http/request'
import { defineRoute } from '../http/route'
import { RULES } from '../security/rules'
import { tableSpec, type TableSpec } from '../data/tables'
import { checkParam, type QueryParam } from '../data/params'
import { TableRepository, type CallerId, type Row } from '../data/repository'
import { XLSX_MIME, toXlsx } from '../data/xlsx'

function specOf (name: string): TableSpec {
  const spec = tableSpec(name)
  if (!spec) throw fail.notFound('data.tableNotFound', { table: name })
  return spec
}

async function callerOf (request: FastifyRequest, ctx: AppContext, spec: TableSpec): Promise<CallerId> {
  const session = await currentSession(request, ctx)
  if (spec.access === 'owner' && !session) throw fail.unauthorized()
  return session ? Number(session.user.id) : null
}

export function dataRoutes (app: Api, ctx: AppContext): void {
  const repo = new TableRepository(ctx.db, ctx.clock, ctx.dialect)

  defineRoute(app, ctx, r.invoke, async ({ request, query, body }) => {
    const { table, method } = query
    const spec = specOf(table)
    if (!spec.methods.includes(method)) {
      throw fail.badRequest('data.methodNotAllowed', { table, method }, { field: 'method' })
    }
    checkParam(table, spec, method, body)
    const caller = await callerOf(request, ctx, spec)
    const p = body as Row & QueryParam & { id: number }
    switch (method) {
      case 'get': return repo.get(spec, caller, p.id)
      case 'list': return repo.list(spec, caller, p)
      case 'page': return repo.page(spec, caller, p as QueryParam & { page: number; size: number })
      case 'add': return repo.add(spec, caller, p)
      case 'update': return repo.update(spec, caller, p.id, p)
      case 'delete':
        await repo.delete(spec, caller, p.id)
        return null
    }
  })

  defineRoute(app, ctx, r.export, async ({ request, reply, query, body }) => {
    const { table } = query
    const spec = specOf(table)
    if (!spec.export) throw fail.badRequest('data.methodNotAllowed', { table, method: 'export' }, { field: 'table' })
    checkParam(table, spec, 'export', body)
    const caller = await callerOf(request, ctx, spec)
    await enforceLimits(ctx, [[RULES.exportPerIp, request.ip]])
    const rows = await repo.exportRows(spec, caller, body as QueryParam)
    const file = await toXlsx(table, spec, rows)
    const name = `${table}-${randomBytes(6).toString('hex')}.xlsx`
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(file)
  })
}
