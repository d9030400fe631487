/**
 * Mini-program: the first part of both dictionaries is in the main package with the app (the login
 * page, home and the start use only these groups, as on H5); the rest is in the subpackage and is added
 * by its pages as they load (./full.weapp.ts, LocaleStore.addRest). A rest asked for before that (a key
 * outside the first part on login or home, a bug the unit tests look for) is given once a subpackage
 * page has added it.
 */
import zhCore from './zh/core'
import enCore from './en/core'
import type { Locale, RestDict } from './types'
import type { DictionarySource } from './load'

const waiting = new Map<Locale, Array<(rest: RestDict) => void>>()
const given = new Map<Locale, RestDict>()

/** Called by LocaleStore.addRest: answers the calls of loadRest still waiting for this language. */
export function restArrived (locale: Locale, rest: RestDict): void {
  given.set(locale, rest)
  for (const resolve of waiting.get(locale) ?? []) resolve(rest)
  waiting.delete(locale)
}

export const dictionarySource: DictionarySource = {
  initial: { zh: zhCore, en: enCore },
  complete: false,
  loadRest: locale => {
    const rest = given.get(locale)
    if (rest) return Promise.resolve(rest)
    return new Promise(resolve => waiting.set(locale, [...(waiting.get(locale) ?? []), resolve]))
  },
  restArrived
}
