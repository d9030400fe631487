import type zhCore from './zh/core'
import type zhRest from './zh/rest'

/** Same shape as the base (zh) dictionary, every leaf a string. */
type DeepString<T> = { [K in keyof T]: T[K] extends string ? string : DeepString<T[K]> }
/** The groups the login page, home and the app's start use (src/locales/zh/core.ts). */
export type CoreDict = DeepString<typeof zhCore>
/** Every other group (src/locales/zh/rest.ts; on H5 a chunk of its own per language). */
export type RestDict = DeepString<typeof zhRest>
export type Dict = CoreDict & RestDict

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>
}[keyof T & string]

/** Every dotted key of the dictionary, e.g. 'titles.home'. */
export type MessageKey = Leaves<Dict>
export type Locale = 'zh' | 'en'
export const LOCALES: readonly Locale[] = ['zh', 'en']
export const FALLBACK_LOCALE: Locale = 'en'
