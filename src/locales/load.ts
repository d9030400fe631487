/**
 * Where the dictionaries come from. In the mini-program (and in Jest) both are complete from the start:
 * the package is on the phone already. The H5 build takes ./load.h5.ts instead, which sends only the
 * first part of each with the app and fetches the rest as a chunk.
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
}

export const dictionarySource: DictionarySource = {
  initial: { zh, en },
  complete: true,
  loadRest: locale => Promise.resolve(locale === 'zh' ? zh : en)
}
