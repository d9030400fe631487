/**
 * Where the dictionaries come from. In Jest both are complete from the start. The H5 build takes
 * ./load.h5.ts instead, which sends only the first part of each with the app and fetches the rest as a
 * chunk; the mini-program ./load.weapp.ts, which keeps the rest in the subpackage.
 */
import zh from './zh'
import en from './en'
import type { CoreDict, Dict, Locale, RestDict } from './types'

export interface DictionarySource {
  /** What is there before anything is fetched: at least the first part (CoreDict) of each language. */
  initial: Record<Locale, CoreDict | Dict>
  /** Whether `initial` is complete already. */
  complete: boolean
  /** The rest of one language's dictionary. */
  loadRest: (locale: Locale) => Promise<RestDict>
  /** Told when a page adds a language's rest itself (the mini-program's subpackage, ./load.weapp.ts). */
  restArrived?: (locale: Locale, rest: RestDict) => void
}

export const dictionarySource: DictionarySource = {
  initial: { zh, en },
  complete: true,
  loadRest: locale => Promise.resolve(locale === 'zh' ? zh : en)
}
