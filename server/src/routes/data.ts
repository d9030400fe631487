/**
 * The generic table API (spec 7, PRODUCT.md): POST /api/data/invoke?table=&method= with the param
 * as body, and POST /api/data/export?table= answering an xlsx file. See data/tables.ts for the
 * allow-list and the ownership rule.
 */
import { randomBytes } from 'node:crypto'
import { Type } from 'typebox'
import type { FastifyRequest } from 'fastify'
import type { Api, AppContext } from '../context'
import { fail, ok } from '../http/envelope'
import { currentSession, enforceLimits } from '../http/request'
import { strict } from '../http/schemas'
import { RULES } from '../security/rules'
import { METHODS, tableSpec, type Method, type TableSpec } from '../data/tables'
import { checkParam, type QueryParam } from '../data/params'
import { TableRepository, type CallerId, type Row } from '../data/repository'
import { XLSX_MIME, toXlsx } from '../data/xlsx'

const TableName = Type.String({ minLength: 1, maxLength: 64 })

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
  const repo = new TableRepository(ctx.db, ctx.clock)

  app.post('/api/data/invoke', {
    schema: { querystring: Type.Object({ table: TableName, method: Type.Enum([...METHODS]) }, strict) }
  }, async (request) => {
    const { table, method } = request.query as { table: string; method: Method }
    const spec = specOf(table)
    if (!spec.methods.includes(method)) {
      throw fail.badRequest('data.methodNotAllowed', { table, method }, { field: 'method' })
    }
    const param = request.body ?? {}
    checkParam(table, spec, method, param)
    const caller = await callerOf(request, ctx, spec)
    const p = param as Row & QueryParam & { id: number }
    switch (method) {
      case 'get': return ok(request, await repo.get(spec, caller, p.id))
      case 'list': return ok(request, await repo.list(spec, caller, p))
      case 'page': return ok(request, await repo.page(spec, caller, p as QueryParam & { page: number; size: number }))
      case 'add': return ok(request, await repo.add(spec, caller, p))
      case 'update': return ok(request, await repo.update(spec, caller, p.id, p))
      case 'delete':
        await repo.delete(spec, caller, p.id)
        return ok(request, null)
    }
  })

  app.post('/api/data/export', {
    schema: { querystring: Type.Object({ table: TableName }, strict) }
  }, async (request, reply) => {
    const { table } = request.query
    const spec = specOf(table)
    if (!spec.export) throw fail.badRequest('data.methodNotAllowed', { table, method: 'export' }, { field: 'table' })
    const param = request.body ?? {}
    checkParam(table, spec, 'export', param)
    const caller = await callerOf(request, ctx, spec)
    await enforceLimits(ctx, [[RULES.exportPerIp, request.ip]])
    const rows = await repo.exportRows(spec, caller, param as QueryParam)
    const file = await toXlsx(table, spec, rows)
    const name = `${table}-${randomBytes(6).toString('hex')}.xlsx`
    return reply
      .header('content-type', XLSX_MIME)
      .header('content-disposition', `attachment; filename="${name}"`)
      .send(file)
  })
}
