import Taro from '@tarojs/taro'
import { dictionarySource, type DictionarySource } from '@/locales/load'
import { FALLBACK_LOCALE, LOCALES, type CoreDict, type Dict, type Locale, type MessageKey, type RestDict } from '@/locales/types'
import { LOCALE_KEY } from '@/constants'
import { getConfig } from '@/config'
import { Signal } from './signal'

export type Params = Record<string, string | number>

/** 'zh_CN', 'zh-Hans', 'en-US' ... -> a supported locale, or null. */
export function matchLocale (raw: unknown): Locale | null {
  if (typeof raw !== 'string' || !raw) return null
  const lang = raw.toLowerCase().split(/[-_]/)[0]
  return (LOCALES as readonly string[]).includes(lang) ? lang as Locale : null
}

function systemLanguage (): string {
  // On H5 the browser knows; Taro's getSystemInfoSync would pull a user-agent parser into the bundle
  // (in an else branch, so that the H5 build drops the call and does not import it at all)
  if (process.env.TARO_ENV === 'h5') {
    return typeof navigator !== 'undefined' ? navigator.language : ''
  } else {
    try {
      return Taro.getSystemInfoSync().language || ''
    } catch {
      return ''
    }
  }
}

function storedLocale (): Locale | null {
  try { return matchLocale(Taro.getStorageSync(LOCALE_KEY)) } catch { return null }
}

/** The user's saved choice, then configuration (TARO_APP_LOCALE), then the system language, then en. */
export function resolveInitialLocale (): Locale {
  return storedLocale() || matchLocale(getConfig().locale) || matchLocale(systemLanguage()) || FALLBACK_LOCALE
}

function lookup (dict: CoreDict | Dict, key: string): string | undefined {
  let node: unknown = dict
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined
    node = (node as Record<string, unknown>)[part]
  }
  return typeof node === 'string' ? node : undefined
}

/**
 * Fills a template: `{name}` takes a parameter; `{name, plural, one {# box} other {# boxes}}` picks
 * the branch for the number (`=N` for an exact number, `one` for 1, `other` otherwise) and puts the
 * number where `#` stands. Chinese has no plural forms and simply does not use the second kind.
 */
export function format (template: string, params?: Params): string {
  if (!params) return template
  let out = ''
  let i = 0
  while (i < template.length) {
    const open = template.indexOf('{', i)
    if (open < 0) { out += template.slice(i); break }
    out += template.slice(i, open)
    const close = matchingBrace(template, open)
    if (close < 0) { out += template.slice(open); break }
    out += fill(template.slice(open + 1, close), params) ?? template.slice(open, close + 1)
    i = close + 1
  }
  return out
}

/** The index of the brace closing the one at `open`, or -1. */
function matchingBrace (s: string, open: number): number {
  let depth = 0
  for (let j = open; j < s.length; j++) {
    if (s[j] === '{') depth++
    else if (s[j] === '}' && --depth === 0) return j
  }
  return -1
}

/** One placeholder's text, or undefined to leave it as written. */
function fill (body: string, params: Params): string | undefined {
  const simple = /^(\w+)$/.exec(body)
  if (simple) return simple[1] in params ? String(params[simple[1]]) : undefined
  const plural = /^(\w+),\s*plural,\s*/.exec(body)
  if (!plural || !(plural[1] in params)) return undefined
  const n = Number(params[plural[1]])
  const branches = new Map<string, string>()
  let rest = body.slice(plural[0].length)
  while (rest.trim()) {
    const sel = /^\s*(=\d+|\w+)\s*\{/.exec(rest)
    if (!sel) return undefined
    const start = sel[0].length - 1
    const end = matchingBrace(rest, start)
    if (end < 0) return undefined
    branches.set(sel[1], rest.slice(start + 1, end))
    rest = rest.slice(end + 1)
  }
  const text = branches.get(`=${n}`) ?? (n === 1 ? branches.get('one') : undefined) ?? branches.get('other')
  return text === undefined ? undefined : format(text.replace(/#/g, String(n)), params)
}

/**
 * The language and its texts. Followed through a Signal, not MobX: every page reads it, the first ones
 * included (src/stores/signal.ts). The dictionaries are replaced whole, never changed in place.
 */
export class LocaleStore {
  private readonly signal = new Signal('locale')
  private current: Locale
  /** Each language's texts so far: the first part at least (H5), complete once its rest is here. */
  private dicts: Record<Locale, CoreDict | Dict>
  private loaded: Record<Locale, boolean>
  private readonly pending = new Map<Locale, Promise<void>>()
  private readonly source: DictionarySource

  constructor (initial: Locale = resolveInitialLocale(), source: DictionarySource = dictionarySource) {
    this.current = initial
    this.source = source
    this.dicts = { ...source.initial }
    this.loaded = { zh: source.complete, en: source.complete }
    this.tagDocument()
  }

  /** The current language (a read: observers follow it). */
  get locale (): Locale {
    this.signal.observe()
    return this.current
  }

  /** Texts of a language arrived: its whole rest (`complete`), or some groups of it. */
  private addTexts (locale: Locale, texts: Partial<RestDict>, complete: boolean): void {
    this.dicts = { ...this.dicts, [locale]: { ...this.dicts[locale], ...texts } }
    if (complete) this.loaded = { ...this.loaded, [locale]: true }
    this.signal.changed()
  }

  /** H5: the page's lang follows the locale (screen readers, and the build's prerender reads it). */
  private tagDocument (): void {
    if (process.env.TARO_ENV === 'h5' && typeof document !== 'undefined') document.documentElement.lang = this.languageTag
  }

  get dict (): CoreDict | Dict { return this.dicts[this.locale] }

  /** The current language's dictionary is all here (always in the mini-program). */
  get complete (): boolean { return this.loaded[this.locale] }

  /** Tags sent to the server and used by Intl: zh-CN or en. */
  get languageTag (): string { return this.locale === 'zh' ? 'zh-CN' : 'en' }

  /**
   * Fetches the rest of a language's dictionary once (H5; at once elsewhere). A failed fetch (offline)
   * is retried by the next call, and rejects this one.
   */
  ensureRest = (locale: Locale = this.current): Promise<void> => {
    if (this.loaded[locale]) return Promise.resolve()
    let pending = this.pending.get(locale)
    if (!pending) {
      pending = this.source.loadRest(locale).then(rest => {
        this.addTexts(locale, rest, true)
      }, (e: unknown) => {
        this.pending.delete(locale)
        throw e
      })
      this.pending.set(locale, pending)
    }
    return pending
  }

  /**
   * A language's rest, added by the page that carries it (the mini-program's subpackage pages,
   * src/locales/full.weapp.ts), at once: the page renders with the whole dictionary.
   */
  addRest = (locale: Locale, rest: RestDict): void => {
    if (!this.loaded[locale]) this.addTexts(locale, rest, true)
    this.source.restArrived?.(locale, rest)
  }

  /** Some groups of the rest, added by a page that needs only those (the mini-program's web view). */
  addGroups = (locale: Locale, groups: Partial<RestDict>): void => {
    if (!this.loaded[locale]) this.addTexts(locale, groups, false)
  }

  /**
   * Switches the language. Where the current page has the whole dictionary (any page but login and
   * home on H5), the other language's rest is fetched first, so the page never shows a raw key.
   */
  setLocale = async (locale: Locale): Promise<void> => {
    if (this.loaded[this.current] && !this.loaded[locale]) await this.ensureRest(locale)
    this.current = locale
    this.signal.changed()
    this.tagDocument()
    try { Taro.setStorageSync(LOCALE_KEY, locale) } catch { /* not persisted, still switched */ }
  }

  /** Calls `listener` after each change of the language or its texts, until the returned function is called. */
  subscribe (listener: () => void): () => void {
    return this.signal.subscribe(listener)
  }

  toggle = (): Promise<void> => {
    return this.setLocale(this.current === 'zh' ? 'en' : 'zh')
  }

  /**
   * Translate a key; reads the observable locale and dictionaries, so observers re-render on a switch
   * and when the rest arrives. A key outside the first part, asked before the rest is here, is a bug
   * (the page does not import '@/locales/full'): it is reported, the rest is fetched, and the key shows
   * until then.
   */
  t = (key: MessageKey, params?: Params): string => {
    const text = lookup(this.dicts[this.locale], key) ?? lookup(this.dicts[FALLBACK_LOCALE], key)
    if (text === undefined && !this.loaded[this.locale]) {
      console.error(`message ${key} is not in the first part of the dictionary: import '@/locales/full' in the page`)
      this.ensureRest().catch(() => undefined)
    }
    return format(text ?? key, params)
  }

  /** For keys built at run time (e.g. a title looked up from a route). */
  has (key: string): key is MessageKey {
    return lookup(this.dicts[this.locale], key) !== undefined
  }
}

export const localeStore = new LocaleStore()
export const t = (key: MessageKey, params?: Params) => localeStore.t(key, params)
