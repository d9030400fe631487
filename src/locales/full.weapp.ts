/**
 * Mini-program: imported first by every page of the subpackage but home. The rest of the dictionary
 * is in the subpackage with them (the main package carries only the first part, ./load.weapp.ts), and
 * is added before the page's module runs.
 */
import { localeStore } from '@/stores/locale'
import zhRest from './zh/rest'
import enRest from './en/rest'

localeStore.addRest('zh', zhRest)
localeStore.addRest('en', enRest)

export {}
