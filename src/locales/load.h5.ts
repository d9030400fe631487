/**
 * H5: the first part of both dictionaries comes with the app (the login page, home and the start use
 * only these groups, and either language can be picked there); the rest of one language is a chunk of
 * its own (dict-zh, dict-en, about 10 KB brotli each), fetched by the other pages (src/locales/full).
 */
import zhCore from './zh/core'
import enCore from './en/core'
import type { DictionarySource } from './load'

export const dictionarySource: DictionarySource = {
  initial: { zh: zhCore, en: enCore },
  complete: false,
  loadRest: locale => locale === 'zh'
    ? import(/* webpackChunkName: "dict-zh" */ './zh/rest').then(m => m.default)
    : import(/* webpackChunkName: "dict-en" */ './en/rest').then(m => m.default)
}
