/**
 * The editor's guard and the roles work of issue 10, rendered with the calls spied on: who reaches the
 * editor (anonymous asked to log in, a shopper by URL sees "no access" and no operator call is made,
 * even when the app still remembers an operator role), the Operators tab (search, grant, revoke, the
 * rules shown before a tap), the Audit log tab (a readable diff in zh and en, filters), and the recipe
 * form (checks, the live odds preview, the request it sends).
 */
import { render, fireEvent, act, cleanup } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { Current } from '@tarojs/runtime'
import type { UserInfo } from '~types/accounts'
import type { AuditEntryView, AuditListResponse, OperatorUserView } from '~types/operators'
import type { OperatorRecipe } from '~types/combine'
import type { SeriesDetail } from '~types/shop'
import { poolOddsPpm } from '~types/fair'
import { localeStore } from '@/stores/locale'
import { sessionStore } from '@/stores/session'
import { tokenStorage } from '@/services/token'
import { accountApi } from '@/services/account'
import { operatorRoleApi } from '@/services/operators'
import { recipeAdminApi } from '@/services/combine'
import { shopApi } from '@/services/shop'
import { LOGIN_RETURN_KEY } from '@/constants'
import { formatPpm } from '@/utils/format'
import EditorPage from '@/pagesA/editor/index'

const ok = () => Promise.resolve({ errMsg: 'ok' }) as never
const text = (c: Element | null) => c?.textContent || ''
const user = (role: UserInfo['role'], id = 1): UserInfo => ({ id, userName: role, nickname: `Demo ${role}`, phone: null, email: null, avatar: null, role })
const flush = () => act(async () => { for (let i = 0; i < 6; i++) await new Promise(r => setTimeout(r, 0)) })
const type = (el: Element, value: string) => act(() => { el.dispatchEvent(new CustomEvent('input', { detail: { value }, bubbles: true })) })

beforeEach(() => {
  Current.router = { path: '/pagesA/editor/index', params: {}, onReady: '', onHide: '', onShow: '', shareTimeline: '', shareAppMessage: '' } as never
  jest.spyOn(Taro, 'showToast').mockImplementation(ok)
  jest.spyOn(Taro, 'showLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'hideLoading').mockImplementation(ok)
  jest.spyOn(Taro, 'setNavigationBarTitle').mockImplementation(ok)
  jest.spyOn(Taro, 'redirectTo').mockImplementation(ok)
  jest.spyOn(Taro, 'reLaunch').mockImplementation(ok)
  localeStore.setLocale('en')
})
afterEach(() => { cleanup(); jest.restoreAllMocks(); sessionStore.setUser(null); tokenStorage.clear(); Taro.removeStorageSync(LOGIN_RETURN_KEY) })

/** Every request the page makes, answered as the server would for a caller with this role. */
function serverSays (role: UserInfo['role'] | null) {
  const urls: string[] = []
  jest.spyOn(Taro, 'request').mockImplementation(((params: { url: string }) => {
    urls.push(params.url)
    const answer = (code: number, data: unknown) => Promise.resolve({ statusCode: 200, header: {}, data: { code, message: code === 200 ? 'ok' : 'refused', data } })
    if (params.url === '/getUserInfo') return role ? answer(200, user(role)) : answer(401, null)
    return answer(role === 'operator' ? 200 : 403, null)
  }) as never)
  return urls
}

describe('the editor guard', () => {
  it('anonymous: asked to log in, nothing requested; the login remembers the editor to come back to', async () => {
    const urls = serverSays(null)
    const { container } = render(<EditorPage />)
    await flush()
    expect(text(container)).toContain('Log in as an operator to use the editor')
    expect(urls).toEqual([])
    await act(async () => { fireEvent.click(container.querySelector('.empty-state__action')!) })
    expect(JSON.parse(Taro.getStorageSync(LOGIN_RETURN_KEY)).url).toBe('/pagesA/editor/index')
  })

  it('a shopper opening the editor by its URL: "no access", no tab, and no operator call, only the role asked for', async () => {
    tokenStorage.set('shopper-token')
    const urls = serverSays('shopper')
    const { container } = render(<EditorPage />)
    expect(text(container)).toContain('Loading')
    await flush()
    expect(text(container)).toContain('No access: the editor is for the shop\'s operators')
    expect(container.querySelector('.editor-tab-operators')).toBeNull()
    expect(urls).toEqual(['/getUserInfo'])
  })

  it('the app still remembers an operator role the server has since revoked: no tab is shown and no operator call made', async () => {
    tokenStorage.set('was-operator-token')
    sessionStore.setUser(user('operator'))
    const urls = serverSays('shopper')
    const { container } = render(<EditorPage />)
    expect(container.querySelector('.editor-tab-operators')).toBeNull()
    await flush()
    expect(text(container)).toContain('No access')
    expect(urls.filter(u => u.includes('/operator/'))).toEqual([])
  })

  it('an operator gets every tab, the new ones included, in zh too', async () => {
    tokenStorage.set('operator-token')
    serverSays('operator')
    jest.spyOn(shopApi, 'seriesList').mockResolvedValue({ list: [], total: 0 })
    const { container } = render(<EditorPage />)
    await flush()
    for (const tab of ['series', 'shipments', 'withdrawals', 'recipes', 'settings', 'operators', 'audit']) expect(container.querySelector(`.editor-tab-${tab}`)).not.toBeNull()
    expect(text(container.querySelector('.editor-tab-operators'))).toBe('Operators')
    act(() => { localeStore.setLocale('zh') })
    expect(text(container.querySelector('.editor-tab-audit'))).toBe('操作日志')
  })
})

/** The editor as an operator, on one tab. */
async function openTab (tab: string) {
  tokenStorage.set('operator-token')
  jest.spyOn(accountApi, 'userInfo').mockResolvedValue(user('operator'))
  const view = render(<EditorPage />)
  await flush()
  await act(async () => { fireEvent.click(view.container.querySelector(`.editor-tab-${tab}`)!) })
  await flush()
  return view
}

const account = (over: Partial<OperatorUserView>): OperatorUserView => ({
  id: 2, userName: 'shopper', nickname: 'Demo shopper', phone: '138****0001', email: 's***@example.com', role: 'shopper', createdAt: '2026-11-20T08:00:00.000Z', self: false, ...over
})

describe('the Operators tab', () => {
  it('lists the operators; the caller\'s own role and the last operator cannot be revoked (said before a tap, nothing sent)', async () => {
    jest.spyOn(operatorRoleApi, 'users').mockResolvedValue({ list: [account({ id: 1, userName: 'operator', nickname: 'Demo operator', role: 'operator', self: true })], total: 1 })
    const save = jest.spyOn(operatorRoleApi, 'roleSave')
    const modal = jest.spyOn(Taro, 'showModal')
    const { container } = await openTab('operators')
    const me = container.querySelector('.op-user-1')!
    expect(text(me)).toContain('Demo operator (operator) (you)')
    expect(text(me)).toContain('You cannot revoke your own role')
    expect(me.querySelector('.op-user__revoke')!.className).toContain('btn--disabled')
    await act(async () => { fireEvent.click(me.querySelector('.op-user__revoke')!) })
    expect(modal).not.toHaveBeenCalled()
    expect(save).not.toHaveBeenCalled()
  })

  it('finds an account by a part of its name and makes it an operator after a confirmation; the lists reload', async () => {
    const users = jest.spyOn(operatorRoleApi, 'users').mockImplementation(async q => q.role === 'operator'
      ? { list: [account({ id: 1, userName: 'operator', role: 'operator', self: true })], total: 1 }
      : { list: [account({})], total: 1 })
    const save = jest.spyOn(operatorRoleApi, 'roleSave').mockResolvedValue(account({ role: 'operator' }))
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' } as never)
    const { container } = await openTab('operators')
    await type(container.querySelector('.op-find__input')!, 'shop')
    await act(async () => { fireEvent.click(container.querySelector('.op-find__go')!) })
    await flush()
    expect(users).toHaveBeenLastCalledWith({ page: 1, size: 20, query: 'shop' })
    const found = container.querySelector('.op-find .op-user-2')!
    expect(text(found)).toContain('138****0001 · s***@example.com')
    expect(text(container)).toContain('1 account found')
    await act(async () => { fireEvent.click(found.querySelector('.op-user__grant')!) })
    await flush()
    expect(Taro.showModal).toHaveBeenCalledWith(expect.objectContaining({ content: expect.stringContaining('Make Demo shopper (shopper) an operator?') }))
    expect(save).toHaveBeenCalledWith({ userId: 2, role: 'operator' })
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: 'Demo shopper (shopper) is now an operator' }))
    expect(users.mock.calls.filter(([q]) => q.role === 'operator').length).toBeGreaterThanOrEqual(2)
  })

  it('a cancelled confirmation changes nothing', async () => {
    jest.spyOn(operatorRoleApi, 'users').mockResolvedValue({ list: [account({ id: 1, role: 'operator', self: true }), account({ id: 3, userName: 'other', nickname: 'Other', role: 'operator' })], total: 2 })
    const save = jest.spyOn(operatorRoleApi, 'roleSave')
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false, cancel: true, errMsg: 'ok' } as never)
    const { container } = await openTab('operators')
    await act(async () => { fireEvent.click(container.querySelector('.op-user-3 .op-user__revoke')!) })
    await flush()
    expect(Taro.showModal).toHaveBeenCalledWith(expect.objectContaining({ content: 'Revoke the operator role of Other (other)?' }))
    expect(save).not.toHaveBeenCalled()
  })
})

const entry = (over: Partial<AuditEntryView>): AuditEntryView => ({
  id: 1, at: '2026-11-21T08:00:00.000Z', actor: { id: 1, name: 'Demo operator (operator)' }, action: 'settings.update', entity: 'setting', entityId: null,
  before: null, after: null, context: {}, ...over
})
const LOG: AuditListResponse = {
  list: [
    entry({ id: 9, action: 'role.grant', entity: 'user', entityId: 2, before: { role: 'shopper' }, after: { role: 'operator' }, context: { user: 'Demo shopper (shopper)' } }),
    entry({ id: 8, before: { hintCardPriceCents: 300, shipFeeCents: 1200 }, after: { hintCardPriceCents: 500, shipFeeCents: 0 } }),
    entry({
      id: 7, action: 'recipe.update', entity: 'recipe', entityId: 4, actor: { id: 5, name: 'Ops Two (ops2)' },
      before: { name: { zh: '升级', en: 'Level up' }, inputCount: 3, pool: [{ designId: 11, name: { zh: '星星兔', en: 'Star bunny' }, weight: 2 }, { designId: 12, name: { zh: '月亮猫', en: 'Moon cat' }, weight: 1 }], status: 'on' },
      after: { name: { zh: '升级', en: 'Level up!' }, inputCount: 3, pool: [{ designId: 11, name: { zh: '星星兔', en: 'Star bunny' }, weight: 5 }, { designId: 13, name: { zh: '太阳狗', en: 'Sun dog' }, weight: 1 }], status: 'off' }
    }),
    entry({ id: 6, action: 'series.create', entity: 'series', entityId: 3, actor: null, after: { priceCents: 2500, hiddenCasePpm: 83333 } })
  ],
  total: 4,
  entities: ['recipe', 'series', 'setting', 'user'],
  actors: [{ id: 1, name: 'Demo operator (operator)' }, { id: 5, name: 'Ops Two (ops2)' }]
}

describe('the Audit log tab', () => {
  it('shows who, when, what and a readable before → after of only the changed fields, in English and Chinese', async () => {
    jest.spyOn(operatorRoleApi, 'audit').mockResolvedValue(LOG)
    const { container } = await openTab('audit')
    const rows = (id: number) => [...container.querySelectorAll(`.audit-entry-${id} .audit-diff__row`)].map(r => r.textContent)
    expect(text(container.querySelector('.audit-entry-9'))).toContain('Operator role granted')
    expect(text(container.querySelector('.audit-entry-9'))).toContain('Account #2')
    expect(text(container.querySelector('.audit-entry-9'))).toContain('Demo operator (operator)')
    expect(text(container.querySelector('.audit-entry-9'))).toContain('Account: Demo shopper (shopper)')
    expect(rows(9)).toEqual(['RoleShopper → Operator'])
    expect(rows(8)).toEqual(['Hint card price¥3.00 → ¥5.00', 'Shipping fee below that¥12.00 → ¥0.00'])
    expect(rows(7)).toEqual([
      'Name · EnglishLevel up → Level up!',
      'Output pool · Star bunny2 → 5',
      'Output pool · Moon cat1',
      'Status' + 'Published → Withdrawn',
      'Output pool · Sun dog1'
    ])
    expect(container.querySelector('.audit-entry-7 .audit-diff__row--removed')!.textContent).toContain('Moon cat')
    expect(container.querySelector('.audit-entry-7 .audit-diff__row--added')!.textContent).toContain('Sun dog')
    expect(text(container.querySelector('.audit-entry-6'))).toContain('System')
    expect(text(container.querySelector('.audit-entry-6'))).toContain('Created')
    expect(rows(6)).toEqual(['Price per box¥25.00', 'Hidden chance8.33%'])
    act(() => { localeStore.setLocale('zh') })
    expect(rows(9)).toEqual(['角色顾客 → 运营'])
    expect(rows(8)).toEqual(['提示卡价格¥3.00 → ¥5.00', '不满时的运费¥12.00 → ¥0.00'])
    expect(rows(7)[1]).toBe('产出池 · 星星兔2 → 5')
    expect(text(container.querySelector('.audit-entry-9'))).toContain('授予运营权限')
  })

  it('filters by what and by who (a tap on a name too)', async () => {
    const audit = jest.spyOn(operatorRoleApi, 'audit').mockResolvedValue(LOG)
    const { container } = await openTab('audit')
    expect(audit).toHaveBeenLastCalledWith({ page: 1, size: 20 })
    await act(async () => { fireEvent.click(container.querySelector('.audit-chip-entity-recipe')!) })
    await flush()
    expect(audit).toHaveBeenLastCalledWith({ page: 1, size: 20, entity: 'recipe' })
    await act(async () => { fireEvent.click(container.querySelector('.audit-entry-7 .audit-entry__actor')!) })
    await flush()
    expect(audit).toHaveBeenLastCalledWith({ page: 1, size: 20, entity: 'recipe', actorId: 5 })
    await act(async () => { fireEvent.click(container.querySelector('.audit-chip-actor-all')!) })
    await act(async () => { fireEvent.click(container.querySelector('.audit-chip-entity-all')!) })
    await flush()
    expect(audit).toHaveBeenLastCalledWith({ page: 1, size: 20 })
  })

  it('seeded and edited series, shipments and context read as people read them: no JSON, keys, carrier codes or image paths, no empty entries', async () => {
    const design = (id: number, zh: string, en: string, image: string) => ({ id, name: { zh, en }, rarity: 'regular', image, referenceValueCents: 3900, recycleValueCents: 975 })
    jest.spyOn(operatorRoleApi, 'audit').mockResolvedValue({
      list: [
        // a save of an unchanged series (written before the server stopped writing them): not shown
        entry({ id: 25, action: 'series.update', entity: 'series', entityId: 1, before: { priceCents: 3900, title: { zh: '萌宠', en: 'Pets' } }, after: { title: { zh: '萌宠', en: 'Pets' }, priceCents: 3900 } }),
        entry({ id: 24, action: 'shipment.deliver', entity: 'shipment', entityId: 8, before: { status: 'requested', carrier: null, trackingNo: null }, after: { status: 'shipping', carrier: 'shunfeng', trackingNo: 'SF1234567890' }, context: { userId: 3 } }),
        entry({ id: 23, action: 'series.publish', entity: 'series', entityId: 1, before: { status: 'draft' }, after: { status: 'on_sale' }, context: { firstCaseId: 5 } }),
        entry({ id: 22, action: 'series.retire', entity: 'series', entityId: 1, before: { status: 'on_sale' }, after: { status: 'retired' }, context: { revealedCases: [5, 6] } }),
        entry({
          id: 21, action: 'series.update', entity: 'series', entityId: 1,
          before: { cover: '/media/art/gift.webp', designs: [design(1, '小狗', 'Puppy', '/media/art/dog.webp')] },
          after: { cover: '/media/u/abc.png', designs: [design(1, '小狗', 'Doggy', '/media/art/dog2.webp')] }
        }),
        // the demo shop's series, as the server records it now
        entry({ id: 20, action: 'series.create', entity: 'series', entityId: 1, actor: null, after: { status: 'on_sale', title: { zh: '萌宠乐园', en: 'Pet Party' }, cover: '/media/art/gift.webp', priceCents: 3900, designs: [design(1, '小狗', 'Puppy', '/media/art/dog.webp'), design(2, '小猫', 'Kitty', '/media/art/cat.webp')] } }),
        // and as it was recorded before (names in Chinese only, no ids)
        entry({ id: 19, action: 'series.create', entity: 'series', entityId: 2, actor: null, after: { priceCents: 5900, designs: [{ name: '甜甜圈', rarity: 'regular', referenceValueCents: 5900, recycleValueCents: 1475 }] } })
      ],
      total: 7,
      entities: ['series', 'shipment'],
      actors: [{ id: 1, name: 'Demo operator (operator)' }]
    })
    const { container } = await openTab('audit')
    const all = text(container)
    expect(all).not.toMatch(/[{}"]|firstCaseId|revealedCases|shunfeng|\/media\//)
    expect(container.querySelector('.audit-entry-25')).toBeNull()
    expect(text(container.querySelector('.audit-entry-24'))).toContain('CarrierSF Express')
    expect(text(container.querySelector('.audit-entry-23'))).toContain('First case: #5')
    expect(text(container.querySelector('.audit-entry-22'))).toContain('Cases revealed: #5, #6')
    // images as thumbnails, before and after
    const images = (id: number, cls: string) => [...container.querySelectorAll(`.audit-entry-${id} ${cls}`)].map(i => i.getAttribute('src'))
    expect(images(21, '.audit-diff__before--image')).toEqual(['/media/art/gift.webp', '/media/art/dog.webp'].map(p => expect.stringContaining(p)))
    expect(images(21, '.audit-diff__after--image')).toEqual(['/media/u/abc.png', '/media/art/dog2.webp'].map(p => expect.stringContaining(p)))
    expect(text(container.querySelector('.audit-entry-21'))).toContain('Designs 1 · Name · EnglishPuppy → Doggy')
    // a created series: its designs listed, each with its image and values
    const created = container.querySelector('.audit-entry-20')!
    expect([...created.querySelectorAll('.audit-design__name')].map(n => n.textContent)).toEqual(['Puppy · Regular', 'Kitty · Regular'])
    expect(created.querySelectorAll('.audit-design .audit-thumb').length).toBe(2)
    expect(text(created)).toContain('reference ¥39.00 · recycles for ¥9.75')
    expect([...container.querySelectorAll('.audit-entry-19 .audit-design__name')].map(n => n.textContent)).toEqual(['甜甜圈 · Regular'])
    act(() => { localeStore.setLocale('zh') })
    expect(text(container.querySelector('.audit-entry-24'))).toContain('顺丰')
    expect(text(container.querySelector('.audit-entry-23'))).toContain('首箱: #5')
  })
})

const SERIES: SeriesDetail = {
  id: 3, title: { zh: '萌宠乐园', en: 'Pet park' }, description: { zh: '', en: '' }, cover: '/c.webp', priceCents: 1000, caseSize: 12, kind: 'case', designCount: 3,
  oddsPpm: { regular: 800000, rare: 150000, hidden: 50000 }, status: 'on_sale', soldOut: false, hiddenCasePpm: 50000, valueRange: { minCents: 0, maxCents: 0 }, rules: { zh: '', en: '' }, drop: null,
  designs: [
    { id: 11, name: { zh: '星星兔', en: 'Star bunny' }, image: '/a.webp', rarity: 'regular', referenceValueCents: 100, recycleValueCents: 10, oddsPpm: 400000 },
    { id: 12, name: { zh: '月亮猫', en: 'Moon cat' }, image: '/b.webp', rarity: 'rare', referenceValueCents: 100, recycleValueCents: 10, oddsPpm: 400000 },
    { id: 13, name: { zh: '太阳狗', en: 'Sun dog' }, image: '/c.webp', rarity: 'hidden', referenceValueCents: 100, recycleValueCents: 10, oddsPpm: 200000 }
  ]
}

describe('the recipe form', () => {
  async function openForm (recipes: OperatorRecipe[] = []) {
    jest.spyOn(recipeAdminApi, 'list').mockResolvedValue(recipes)
    jest.spyOn(shopApi, 'seriesList').mockResolvedValue({ list: [SERIES], total: 1 })
    jest.spyOn(shopApi, 'seriesDetail').mockResolvedValue(SERIES)
    return openTab('recipes')
  }

  it('a new recipe: checked like the server, odds previewed as the weights are typed, then sent as the contract says', async () => {
    const save = jest.spyOn(recipeAdminApi, 'save').mockImplementation(async () => ({}) as OperatorRecipe)
    const { container } = await openForm()
    await act(async () => { fireEvent.click(container.querySelector('.recipe-new')!) })
    await flush()
    expect(text(container)).toContain('New combine recipe')
    await act(async () => { fireEvent.click(container.querySelector('.recipe-save')!) })
    expect(text(container)).toContain('Name (Chinese) is required')
    expect(text(container)).toContain('Name (English) is required')
    expect(text(container)).toContain('The pool needs at least one design')
    expect(save).not.toHaveBeenCalled()

    await type(container.querySelector('.recipe-name-zh')!, '升级')
    await type(container.querySelector('.recipe-name-en')!, '   ')
    await type(container.querySelector('.recipe-count')!, '21')
    await act(async () => { fireEvent.click(container.querySelector('.recipe-chip-design-12')!) })
    await act(async () => { fireEvent.click(container.querySelector('.recipe-chip-design-13')!) })
    expect(text(container)).toContain('Name (English) must not be blank')
    expect(text(container)).toContain('Prizes per combine must be a whole number from 2 to 20')
    const weights = container.querySelectorAll('.recipe-weight')
    await type(weights[0], '3')
    await type(weights[1], '1e3')
    expect(text(container)).toContain('A weight is a whole number from 1 to 1,000,000')
    // the odds leave out a weight that is not a number yet
    expect(text(container.querySelector('.recipe-pool-12 .recipe-pool__odds'))).toBe('100%')
    await type(weights[1], '1')
    const [a, b] = poolOddsPpm([3, 1])
    expect(text(container.querySelector('.recipe-pool-12 .recipe-pool__odds'))).toBe(formatPpm(a))
    expect(text(container.querySelector('.recipe-pool-13 .recipe-pool__odds'))).toBe(formatPpm(b))
    expect(text(container.querySelector('.recipe-preview'))).toContain('Total weight 4 · Guaranteed: Rare or better')
    await type(container.querySelector('.recipe-name-en')!, 'Level up')
    await type(container.querySelector('.recipe-count')!, '2')
    await act(async () => { fireEvent.click(container.querySelector('.recipe-chip-rarity-rare')!) })
    await act(async () => { fireEvent.click(container.querySelector('.recipe-chip-status-off')!) })
    await act(async () => { fireEvent.click(container.querySelector('.recipe-save')!) })
    await flush()
    expect(save).toHaveBeenCalledWith({
      seriesId: 3, name: { zh: '升级', en: 'Level up' }, inputKind: 'rarity', inputRarity: 'rare', inputCount: 2,
      pool: [{ designId: 12, weight: 3 }, { designId: 13, weight: 1 }], status: 'off'
    })
    // back to the list
    expect(container.querySelector('.recipe-form')).toBeNull()
  })

  it('editing a recipe starts from what it is; a same-design recipe sends no rarity', async () => {
    const recipe: OperatorRecipe = {
      id: 4, seriesId: 3, seriesTitle: SERIES.title, name: { zh: '双倍', en: 'Double' }, input: { kind: 'same_design', rarity: null, count: 2 },
      pool: [{ design: SERIES.designs[2], weight: 1, oddsPpm: 1_000_000 }], totalWeight: 1, guaranteedRarity: 'hidden', status: 'on'
    }
    const save = jest.spyOn(recipeAdminApi, 'save').mockImplementation(async () => recipe)
    const { container } = await openForm([recipe])
    await act(async () => { fireEvent.click(container.querySelector('.op-recipe-4 .op-recipe__edit')!) })
    await flush()
    expect(text(container)).toContain('Edit recipe #4')
    expect((container.querySelector('.recipe-chip-kind-same') as HTMLElement).className).toContain('recipe-chip--on')
    expect(text(container.querySelector('.recipe-pool-13'))).toContain('Sun dog')
    await type(container.querySelector('.recipe-weight')!, '7')
    await act(async () => { fireEvent.click(container.querySelector('.recipe-save')!) })
    await flush()
    expect(save).toHaveBeenCalledWith({
      id: 4, seriesId: 3, name: { zh: '双倍', en: 'Double' }, inputKind: 'same_design', inputRarity: null, inputCount: 2, pool: [{ designId: 13, weight: 7 }], status: 'on'
    })
  })
})
