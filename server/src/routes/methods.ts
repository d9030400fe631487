/**
 * The generic call POST /api/:method_name (types/methods.ts): a name on the allow-list runs its method
 * after the method's own authorization and parameter check; any other name is the 404 of an unknown API.
 * The name is only ever compared with the allow-list (an array, never an object's keys), so inherited
 * names (__proto__, constructor, toString) are unknown like any other.
 */
import { Compile } from 'typebox/compile'
import { METHOD_NAMES, METHODS, methodRoutes as r, type MethodName } from '../../../types/methods'
import type { Api, AppContext } from '../context'
import { fail } from '../core/errors'
import { defineRoute } from '../http/route'
import { validationFailure, type SchemaError } from '../http/validation'
import { chinaToday, travelWindow } from '../domain/events/travel'
import { helperFeatures } from '../http/helperFeatures'

const validators = new Map(METHOD_NAMES.map(name => [name, Compile(METHODS[name].params)] as const))

export const isMethodName = (name: unknown): name is MethodName =>
  typeof name === 'string' && (METHOD_NAMES as readonly string[]).includes(name)

export function methodRoutesOf (app: Api, ctx: AppContext): void {
  const run: { [K in MethodName]: () => unknown } = {
    serverTime: () => {
      const now = ctx.clock()
      return { now: new Date(now).toISOString(), timeZone: 'Asia/Shanghai', today: chinaToday(now) }
    },
    helperFeatures: () => helperFeatures(ctx),
    travelDates: () => travelWindow(ctx.clock())
  }
  defineRoute(app, ctx, r.call, async ({ request, body, session }) => {
    const name = (request.params as { method_name?: unknown }).method_name
    if (!isMethodName(name)) throw fail.notFound('request.notFound')
    if (METHODS[name].auth === 'user' && !session) throw fail.unauthorized()
    const check = validators.get(name)!
    if (!check.Check(body)) throw validationFailure([...check.Errors(body)] as unknown as SchemaError[], 'body')
    return run[name]() as never
  })
}
