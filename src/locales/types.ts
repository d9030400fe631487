import type zh from './zh'

/** Same shape as the base (zh) dictionary, every leaf a string. */
type DeepString<T> = { [K in keyof T]: T[K] extends string ? string : DeepString<T[K]> }
export type Dict = DeepString<typeof zh>

type Leaves<T, P extends string = ''> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>
}[keyof T & string]

/** Every dotted key of the dictionary, e.g. 'titles.home'. */
export type MessageKey = Leaves<Dict>
export type Locale = 'zh' | 'en'
export const LOCALES: readonly Locale[] = ['zh', 'en']
export const FALLBACK_LOCALE: Locale = 'en'
