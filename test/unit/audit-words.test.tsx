/**
 * The audit log speaks the operator's language (issue 48: the Chinese view showed "Tags"). Every action,
 * entity and field the server writes into the log (found in server/src/domain: each `writeAudit(...)`
 * call and the views whose objects it records) has a label in both dictionaries, and the audit tab,
 * rendered in Chinese with an entry for each of them, shows no Latin word at all.
 */
import fs from 'node:fs'
import path from 'node:path'
import { render, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { AuditEntryView } from '~types/operators'
import { localeStore } from '@/stores/locale'
import { operatorRoleApi } from '@/services/operators'
import AuditTab from '@/pagesA/editor/AuditTab'

const DOMAIN = path.resolve(__dirname, '../../server/src/domain')
/** Functions whose answer the log records as before/after. */
const VIEWS: Record<string, string[]> = { 'editor.ts': ['auditState'], 'events.ts': ['eventView'], 'pickup.ts': ['pointView'], 'combine.ts': ['recipeState'] }
/** Keys of the writeAudit call itself, not of what it records. */
const STRUCTURE = new Set(['actorId', 'action', 'entity', 'entityId', 'detail', 'before', 'after'])
/** Values (statuses, roles, kinds) the recorded objects hold, as types/ spells them. */
const VALUES = ['draft', 'on_sale', 'retired', 'on', 'off', 'announced', 'cancelled', 'visible', 'reported', 'hidden', 'open', 'answered',
  'closed', 'requested', 'approved', 'rejected', 'pending', 'shipping', 'regular', 'rare', 'operator', 'shopper', 'rarity', 'same_design']

/** The text of the parenthesised call that starts at `from`. */
function callAt (text: string, from: number): string {
  const open = text.indexOf('(', from)
  for (let i = open, depth = 0; i < text.length; i++) {
    if (text[i] === '(') depth++
    else if (text[i] === ')' && --depth === 0) return text.slice(open, i + 1)
  }
  return ''
}

function whatTheServerLogs () {
  const actions = new Set<string>()
  const entities = new Set<string>()
  const fields = new Set<string>()
  // the domain's subject folders (domain/<subject>/*.ts) and any file left at its top
  for (const file of (fs.readdirSync(DOMAIN, { recursive: true }) as string[]).filter(f => f.endsWith('.ts'))) {
    const text = fs.readFileSync(path.join(DOMAIN, file), 'utf8')
    for (let at = text.indexOf('writeAudit(trx'); at >= 0; at = text.indexOf('writeAudit(trx', at + 1)) {
      const call = callAt(text, at)
      for (const m of call.matchAll(/\b([A-Za-z_]+)\s*:/g)) if (!STRUCTURE.has(m[1])) fields.add(m[1])
      for (const m of call.matchAll(/'([a-z_]+\.[A-Za-z_]+)'/g)) actions.add(m[1])
      // show.${body.action}: the moderation actions of types/show.ts
      // eslint-disable-next-line no-template-curly-in-string -- looks for that source text
      if (call.includes('`show.${body.action}`')) ['show.hide', 'show.restore'].forEach(a => actions.add(a))
      // the entity, or the entities of a condition (`x === 'post' ? 'show_post' : 'show_comment'`: not 'post')
      const entity = (/entity:([^,\n]*)/.exec(call)?.[1] ?? '').replace(/===\s*'[^']*'/g, '')
      for (const m of entity.matchAll(/'([a-z_]+)'/g)) entities.add(m[1])
    }
    for (const fn of VIEWS[path.basename(file)] ?? []) {
      const start = text.indexOf(`function ${fn}`)
      const body = text.slice(start, text.indexOf('\n}\n', start))
      for (const m of body.matchAll(/^\s+([A-Za-z_]+):/gm)) fields.add(m[1])
    }
  }
  return { actions: [...actions], entities: [...entities], fields: [...fields] }
}

afterEach(() => { cleanup(); jest.restoreAllMocks(); localeStore.setLocale('en') })

describe('the audit log in Chinese', () => {
  const logged = whatTheServerLogs()

  it('finds what the server logs (the scan itself works)', () => {
    expect(logged.actions).toEqual(expect.arrayContaining(['series.update', 'event.create', 'pickup.hand', 'show.hide', 'withdrawal.approve']))
    expect(logged.entities).toEqual(expect.arrayContaining(['series', 'launch_event', 'pickup_point', 'show_post', 'show_comment']))
    expect(logged.fields).toEqual(expect.arrayContaining(['tags', 'priceCents', 'hiddenReason', 'venue', 'hours']))
  })

  it('has a label for every action, entity and field in both languages', () => {
    for (const locale of ['zh', 'en'] as const) {
      localeStore.setLocale(locale)
      const settings = (k: string) => localeStore.has(`opSettings.${k}`)
      expect([locale, logged.actions.filter(a => !localeStore.has(`audit.action.${a}`))]).toEqual([locale, []])
      expect([locale, logged.entities.filter(e => !localeStore.has(`audit.entity.${e}`))]).toEqual([locale, []])
      expect([locale, logged.fields.filter(f => !localeStore.has(`audit.field.${f}`) && !settings(f))]).toEqual([locale, []])
      expect([locale, VALUES.filter(v => !localeStore.has(`audit.value.${v}`))]).toEqual([locale, []])
    }
  })

  it('the tab, rendered in Chinese with every action, entity, field and value, shows no Latin word', async () => {
    jest.spyOn(Taro, 'showToast').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
    localeStore.setLocale('zh')
    const numbers = Object.fromEntries(logged.fields.map(f => [f, 1]))
    const list: AuditEntryView[] = logged.actions.map((action, i) => ({
      id: i + 1, at: '2026-03-01T08:00:00.000Z', actor: { id: 1, name: '运营一号' }, action,
      entity: logged.entities[i % logged.entities.length], entityId: i + 1,
      before: { ...numbers, status: VALUES[i % VALUES.length] },
      after: { ...Object.fromEntries(logged.fields.map(f => [f, 2])), status: VALUES[(i + 1) % VALUES.length] },
      context: {}
    }))
    jest.spyOn(operatorRoleApi, 'audit').mockResolvedValue({ list, total: list.length, entities: logged.entities, actors: [{ id: 1, name: '运营一号' }] })
    const { container } = render(<AuditTab />)
    await act(async () => { for (let i = 0; i < 6; i++) await new Promise(r => setTimeout(r, 0)) })
    expect(container.querySelectorAll('.audit-entry').length).toBe(list.length)
    const latin = (container.textContent ?? '').match(/[A-Za-z]{2,}/g) ?? []
    expect([...new Set(latin)]).toEqual([])
  }, 60_000)
})
