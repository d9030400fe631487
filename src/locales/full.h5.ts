/**
 * H5: the page that imports this first is evaluated once the rest of the shopper's dictionary is here
 * (a top-level await: webpack makes the page's chunk wait for it, and Taro's router waits for the chunk).
 */
import { localeStore } from '@/stores/locale'

await localeStore.ensureRest()

export {}
