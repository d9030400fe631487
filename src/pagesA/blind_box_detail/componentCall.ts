/**
 * Component interaction (spec 5, 8): call a method of a component instance kept under a ref name.
 * Refusals are the spec's messages: "refName and action are required", "component instance not
 * found", "component has no such method".
 */
import { t } from '@/stores/locale'

export class ComponentCallError extends Error {
  constructor (readonly reason: 'required' | 'notFound' | 'noMethod', message: string) {
    super(message)
    this.name = 'ComponentCallError'
  }
}

export type ComponentRefs = Record<string, { current: unknown } | undefined>

/** Calls refs[refName].current[action](...args) and answers what it returns. */
export function callComponent<T = unknown> (refs: ComponentRefs, refName: string | undefined, action: string | undefined, ...args: unknown[]): T {
  if (!refName || !action) throw new ComponentCallError('required', t('component.required'))
  const instance = refs[refName]?.current as Record<string, unknown> | null | undefined
  if (!instance) throw new ComponentCallError('notFound', t('component.notFound', { refName }))
  const method = instance[action]
  if (typeof method !== 'function') throw new ComponentCallError('noMethod', t('component.noMethod', { refName, action }))
  return (method as (...a: unknown[]) => T).apply(instance, args)
}
