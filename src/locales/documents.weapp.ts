/**
 * Mini-program: the web view page (main package) gets the texts it shows, the agreements and its own
 * words (./zh/documents.ts), without the rest of the dictionary, which stays in the subpackage
 * (./full.weapp.ts). The main package's budget is 600 KB; the whole dictionary was 130 KB of it.
 */
import { localeStore } from '@/stores/locale'
import zhDocuments from './zh/documents'
import enDocuments from './en/documents'

localeStore.addGroups('zh', zhDocuments)
localeStore.addGroups('en', enDocuments)

export {}
