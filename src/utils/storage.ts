/**
 * Storage by variable name (spec 5: read, write and remove need variableName, "variableName不能为空"):
 * a thin layer over Taro's synchronous storage that refuses a missing or blank name before touching
 * anything, and answers null for what is not stored (Taro answers '' for a missing key).
 */
import Taro from '@tarojs/taro'
import { t } from '@/stores/locale'

export class StorageError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'StorageError'
  }
}

function nameOf (variableName: unknown): string {
  if (typeof variableName !== 'string' || !variableName.trim()) throw new StorageError(t('storage.nameRequired'))
  return variableName
}

/** The value stored under variableName, or null when nothing is. */
export function readVariable<T = unknown> (variableName: string): T | null {
  const key = nameOf(variableName)
  let value: unknown
  try { value = Taro.getStorageSync(key) } catch { return null }
  return value === '' || value === undefined ? null : value as T
}

export function writeVariable (variableName: string, value: unknown): void {
  Taro.setStorageSync(nameOf(variableName), value)
}

export function removeVariable (variableName: string): void {
  Taro.removeStorageSync(nameOf(variableName))
}
