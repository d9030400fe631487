/**
 * Every text the app puts on a dialog's button fits it in both languages: WeChat takes at most 4
 * characters, a Latin letter counting half (utils/feedback.ts fitsModalButton). A longer one is refused
 * by showModal, and the dialog never shows; dialog() now falls back to the default text, but the words
 * the page meant are lost. (Found so: "Cancel the event", "Let them lapse", "作废并注销", "Ask again".)
 */
import fs from 'node:fs'
import path from 'node:path'
import zh from '@/locales/zh'
import en from '@/locales/en'
import { fitsModalButton } from '@/utils/feedback'

const root = path.resolve(__dirname, '../../src')
function sources (dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const full = path.join(dir, e.name)
    return e.isDirectory() ? sources(full) : /\.(ts|tsx)$/.test(e.name) ? [fs.readFileSync(full, 'utf8')] : []
  })
}
const keys = [...new Set(sources(root).flatMap(text => [...text.matchAll(/(?:confirmText|cancelText): t\('([\w.]+)'/g)].map(m => m[1])))]
const lookUp = (dict: unknown, key: string): unknown => key.split('.').reduce<unknown>((at, part) => (at as Record<string, unknown> | undefined)?.[part], dict)

it('the dialog buttons were found', () => {
  expect(keys.length).toBeGreaterThanOrEqual(10)
  expect(keys).toContain('seriesForm.lowValuePublish')
})

it.each(keys)('%s fits a dialog button in zh and en', key => {
  for (const dict of [zh, en]) {
    const text = lookUp(dict, key)
    expect(typeof text).toBe('string')
    expect([key, text, fitsModalButton(text as string)]).toEqual([key, text, true])
  }
})

it('the rule counts as WeChat does', () => {
  expect(['确定', '仍要上架', 'Confirm', 'Call off'].map(fitsModalButton)).toEqual([true, true, true, true])
  expect(['作废并注销', 'Ask again', 'Publish anyway'].map(fitsModalButton)).toEqual([false, false, false])
})
