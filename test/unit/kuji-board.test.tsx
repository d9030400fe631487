/**
 * The 一番赏 (kuji) board on the series page (src/pagesA/blind_box_detail/kuji.ts, KujiBoard.tsx,
 * KujiVerify.tsx): a random draw takes unsold tickets only, none twice; the board's sums (tickets left by
 * tier, the chance of each for the next ticket, what a whole set holds); when it asks again; the check of
 * a sold-out set, line by line; and the board rendered: the Last One, the tiers, the tickets (a sold one
 * with its tier, the shopper's starred), the line (join, place, the turn with its draws, end the turn).
 * The typed calls are spied on.
 */
import { TextDecoder, TextEncoder } from 'node:util'
import { act, cleanup, render } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { KujiBoard as Board, KujiSetProof, KujiTicket, KujiTurn } from '~types/kuji'
import { sha256Hex } from '~types/crypto'
import { serverSeedHash } from '~types/fair'
import { kujiCheck, doubleChanceListHash, doubleChanceTickets } from '~types/kujiCheck'
import type { DesignInfo, SeriesDetail } from '~types/shop'
import { kujiApi } from '@/services/kuji'
import { ApiError } from '@/services/errors'
import { tokenStorage } from '@/services/token'
import { localeStore, t } from '@/stores/locale'
import * as navigation from '@/utils/navigation'
import * as methods from '@/services/methods'
import { LAST_ONE, tierName, tierSummaries } from '@/utils/kujiTier'
import {
  DRAW_COUNTS, MIN_POLL_MS, drawCounts, drawLink, isSoldOut, nextPollMs, pickAllowed, pickRandomTickets, stillUnsold, togglePick, verifyView
} from '@/pagesA/blind_box_detail/kuji'
import { kujiGuarantee } from '@/pagesA/blind_box_detail/guarantee'
import KujiBoard from '@/pagesA/blind_box_detail/KujiBoard'
import KujiVerify from '@/pagesA/blind_box_detail/KujiVerify'

// the contract's schema module (types/kuji.ts, for its constants) needs TextEncoder, which jsdom lacks
Object.assign(globalThis, { TextEncoder: globalThis.TextEncoder ?? TextEncoder, TextDecoder: globalThis.TextDecoder ?? TextDecoder })
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { KUJI_DRAW_COUNTS, KUJI_LAST_ONE } = require('~types/kuji') as typeof import('~types/kuji')

const flush = () => act(async () => { await new Promise(r => setTimeout(r, 0)) })

const design = (id: number, tier: string, tickets: number, over: Partial<DesignInfo> = {}): DesignInfo => ({
  id, name: { zh: `款${id}`, en: `Design ${id}` }, image: `/media/art/${id}.webp`, rarity: tier === 'A' || tier === LAST_ONE ? 'rare' : 'regular',
  referenceValueCents: 1000, recycleValueCents: 100, oddsPpm: 0, tier, tickets, ...over
})
const tickets = (n: number, sold: Record<number, { tier: string; mine?: boolean }> = {}): KujiTicket[] =>
  Array.from({ length: n }, (_, i) => ({ ticket: i + 1, sold: !!sold[i + 1], tier: sold[i + 1]?.tier ?? null, mine: !!sold[i + 1]?.mine }))
const turn = (over: Partial<KujiTurn> = {}): KujiTurn => ({ state: 'none', ahead: null, waitSeconds: null, until: null, turnSeconds: 60, inLine: 0, pollMs: 2000, ...over })
const DESIGNS = [design(1, 'A', 1), design(2, 'B', 2), design(3, 'C', 3), design(4, 'C', 4), design(9, LAST_ONE, 0, { name: { zh: '最终大奖', en: 'The big one' } })]
const board = (over: Partial<Board> = {}): Board => ({
  seriesId: 7, setId: 40, setNumber: 2, commit: 'ab'.repeat(32), priceCents: 1500, ticketCount: 10, ticketsLeft: 8,
  tiers: [
    { tier: 'C', designs: [DESIGNS[2], DESIGNS[3]], tickets: 7, left: 6 },
    { tier: 'A', designs: [DESIGNS[0]], tickets: 1, left: 1 },
    { tier: 'B', designs: [DESIGNS[1]], tickets: 2, left: 1 }
  ],
  lastOne: DESIGNS[4],
  tickets: tickets(10, { 2: { tier: 'B', mine: true }, 5: { tier: 'C' } }),
  doubleChance: null,
  recent: [{ name: '张**', tier: 'B', design: DESIGNS[1].name, ticket: 2, at: '2026-11-30T08:15:00.000Z' }],
  turn: turn(),
  previousSetId: 39,
  ...over
})
const series = { id: 7, kind: 'kuji', designs: DESIGNS } as unknown as SeriesDetail

afterEach(() => {
  cleanup()
  jest.useRealTimers()
  jest.restoreAllMocks()
  tokenStorage.set('')
  localeStore.setLocale('zh')
})

describe('the rules', () => {
  test('the app\'s copies of the contract\'s values are the contract\'s', () => {
    expect(DRAW_COUNTS).toEqual([...KUJI_DRAW_COUNTS])
    expect(LAST_ONE).toBe(KUJI_LAST_ONE)
  })

  test('a random draw takes unsold tickets only, none twice, as many as asked (fewer when fewer are left)', () => {
    const all = tickets(30, { 1: { tier: 'A' }, 4: { tier: 'B' }, 5: { tier: 'C' }, 17: { tier: 'C' }, 30: { tier: 'B' } })
    const unsold = all.filter(x => !x.sold).map(x => x.ticket)
    for (let round = 0; round < 300; round++) {
      for (const n of [1, 3, 5, 10]) {
        const pick = pickRandomTickets(all, n)
        expect(pick).toHaveLength(n)
        expect(new Set(pick).size).toBe(n)
        expect(pick.every(x => unsold.includes(x))).toBe(true)
        expect([...pick].sort((a, b) => a - b)).toEqual(pick)
      }
    }
    // only 2 unsold: both, and no more
    expect(pickRandomTickets(tickets(4, { 1: { tier: 'A' }, 3: { tier: 'B' } }), 5)).toEqual([2, 4])
    expect(pickRandomTickets(tickets(3, { 1: { tier: 'A' }, 2: { tier: 'A' }, 3: { tier: 'A' } }), 1)).toEqual([])
  })

  test('every unsold ticket can come out, at about the same rate (a partial Fisher-Yates over the unsold)', () => {
    const all = tickets(12, { 3: { tier: 'A' }, 8: { tier: 'B' } })
    const seen = new Map<number, number>()
    const rounds = 6000
    for (let i = 0; i < rounds; i++) for (const x of pickRandomTickets(all, 3)) seen.set(x, (seen.get(x) ?? 0) + 1)
    expect([...seen.keys()].sort((a, b) => a - b)).toEqual([1, 2, 4, 5, 6, 7, 9, 10, 11, 12])
    // each of the 10 unsold is in 3 of 10 draws: 1800 expected, far inside 1500..2100
    for (const n of seen.values()) expect(n).toBeGreaterThan(1500)
    for (const n of seen.values()) expect(n).toBeLessThan(2100)
  })

  test('the shuffle uses the source it is given, in [0, k)', () => {
    const asked: number[] = []
    // always the last place left: 10 first, then 1 (swapped there), then 2
    expect(pickRandomTickets(tickets(10), 3, k => { asked.push(k); return k - 1 })).toEqual([1, 2, 10])
    expect(asked).toEqual([10, 9, 8])
    expect(pickRandomTickets(tickets(10), 3, () => 0)).toEqual([1, 2, 3])
  })

  test('the counts offered, and a pick by number: 1, 3, 5 or 10 tickets, or every one left', () => {
    expect(drawCounts(80)).toEqual([1, 3, 5, 10])
    expect(drawCounts(4)).toEqual([1, 3])
    expect(drawCounts(0)).toEqual([])
    expect([1, 2, 3, 4, 5, 10, 11].map(n => pickAllowed(n, 40))).toEqual([true, false, true, false, true, true, false])
    expect(pickAllowed(2, 2)).toBe(true)
    expect(pickAllowed(0, 2)).toBe(false)
    expect(pickAllowed(3, 2)).toBe(false)
  })

  test('a tap picks an unsold ticket (or unpicks it); a sold one and an eleventh are not picked', () => {
    const all = tickets(20, { 5: { tier: 'A' } })
    expect(togglePick([3], 1, all)).toEqual({ picked: [1, 3], full: false })
    expect(togglePick([1, 3], 1, all)).toEqual({ picked: [3], full: false })
    expect(togglePick([1], 5, all)).toEqual({ picked: [1], full: false })
    expect(togglePick([1], 99, all)).toEqual({ picked: [1], full: false })
    const ten = [1, 2, 3, 4, 6, 7, 8, 9, 10, 11]
    expect(togglePick(ten, 12, all)).toEqual({ picked: ten, full: true })
    expect(stillUnsold([1, 2, 3], tickets(3, { 2: { tier: 'B' } }))).toEqual([1, 3])
  })

  test('the tiers A first, each with its chance for the next ticket; the Last One is not drawn', () => {
    const rows = tierSummaries(board({ tiers: [...board().tiers, { tier: LAST_ONE, designs: [DESIGNS[4]], tickets: 0, left: 0 }] }))
    expect(rows.map(r => [r.tier, r.left, r.tickets, r.oddsPpm])).toEqual([['A', 1, 1, 125_000], ['B', 1, 2, 125_000], ['C', 6, 7, 750_000]])
    expect(tierSummaries(board({ ticketsLeft: 0, tiers: [{ tier: 'A', designs: [], tickets: 1, left: 0 }] }))[0].oddsPpm).toBe(0)
  })

  test('what a whole set holds, in both languages', () => {
    const g = kujiGuarantee(DESIGNS)
    expect(g).toEqual({ key: 'kuji.guarantee', tickets: 10, tiers: [{ tier: 'A', n: 1 }, { tier: 'B', n: 2 }, { tier: 'C', n: 7 }] })
    localeStore.setLocale('zh')
    expect(t('kuji.guarantee', { n: 10, tiers: 'A赏 1 张、B赏 2 张、C赏 7 张' })).toBe('整套保证：一套 10 张签，A赏 1 张、B赏 2 张、C赏 7 张；抽完一整套必得以上全部赏品，买下最后一张签的人另得最终赏。')
    expect(tierName('A')).toBe('A赏')
    expect(tierName(LAST_ONE)).toBe('最终赏')
    localeStore.setLocale('en')
    expect(tierName('A')).toBe('Prize A')
    expect(tierName(LAST_ONE)).toBe('Last One')
  })

  test('asked again as the server says, never in a spin', () => {
    expect(nextPollMs({ pollMs: 3000 })).toBe(3000)
    expect(nextPollMs({ pollMs: 10_000 })).toBe(10_000)
    expect(nextPollMs({ pollMs: 0 })).toBe(MIN_POLL_MS)
  })

  test('a draw is a purchase of the set\'s tickets, or of every ticket left', () => {
    expect(drawLink(7, 40, [3, 9, 12])).toBe('/pages/purchase/index?seriesId=7&caseId=40&slots=3,9,12&kuji=1')
    expect(drawLink(7, 40, 'all')).toBe('/pages/purchase/index?seriesId=7&caseId=40&whole=1&kuji=1')
    expect(isSoldOut(new ApiError(409, 'sold out', { reason: 'sold_out' }))).toBe(true)
    expect(isSoldOut(new ApiError(409, 'not your turn', { reason: 'not_your_turn' }))).toBe(false)
    expect(isSoldOut(new Error('x'))).toBe(false)
  })
})

/** A sold-out set's proof: tickets 1..10 hold A, B, B, C x7 (shuffled), the Last One after them. */
function proofOf (over: Partial<KujiSetProof> = {}, arrangement = [3, 2, 3, 4, 1, 3, 4, 2, 3, 4, 9]): KujiSetProof {
  const salt = 'cd'.repeat(16)
  return {
    caseId: 39, seriesId: 7, commit: sha256Hex(`39:${arrangement.join(',')}:${salt}`), status: 'sold_out', revealed: true,
    arrangement, salt, ticketCount: 10,
    tiers: DESIGNS.map(d => ({ designId: d.id, tier: d.tier!, name: d.name })), lastOneWinner: '李**', doubleChance: null,
    ...over
  } as KujiSetProof
}
const PUBLISHED = board().tiers

describe('the check of a sold-out set', () => {
  test('everything holds: the commitment, the Last One after the last ticket, the tickets per tier', () => {
    localeStore.setLocale('zh')
    const p = proofOf()
    const v = verifyView(p, kujiCheck(p), PUBLISHED)!
    expect(v.holds).toBe(true)
    expect(v.lines.map(l => [l.name, l.ok])).toEqual([['hash', true], ['lastOne', true], ['counts', true]])
    expect(v.lines[2].text).toBe('各赏张数与公布的一致：A赏 1 张、B赏 2 张、C赏 7 张')
    expect(v.tickets.slice(0, 5)).toEqual([{ ticket: 1, tier: 'C' }, { ticket: 2, tier: 'B' }, { ticket: 3, tier: 'C' }, { ticket: 4, tier: 'C' }, { ticket: 5, tier: 'A' }])
    expect(v.tickets).toHaveLength(10)
    expect(v.winner).toBe('李**')
  })

  test('a salt that is not the one committed: the hash does not match', () => {
    const p = { ...proofOf(), salt: 'ee'.repeat(16) }
    const v = verifyView(p, kujiCheck(p), PUBLISHED)!
    expect(v.lines.map(l => l.ok)).toEqual([false, true, true])
    expect(v.holds).toBe(false)
  })

  test('counts other than those published, and no Last One after the last ticket, are named', () => {
    localeStore.setLocale('en')
    // A twice, B once: committed as revealed (the hash matches), but not the series' published tiers
    const p = proofOf({}, [3, 1, 3, 4, 1, 3, 4, 2, 3, 4, 2])
    const v = verifyView(p, kujiCheck(p), PUBLISHED)!
    expect(v.lines.map(l => [l.name, l.ok])).toEqual([['hash', true], ['lastOne', false], ['counts', false]])
    expect(v.lines[2].text).toBe('Tickets per prize not as published: 2 × Prize A, 1 × Prize B, 7 × Prize C')
    expect(v.lines[1].text).toBe('The place after the last ticket does not hold the Last One')
  })

  test('a Double Chance: its seed against the published hash, its winners drawn again here', () => {
    localeStore.setLocale('zh')
    const seed = '5e'.repeat(32)
    const entries = Array.from({ length: 10 }, (_, i) => ({ ticket: i + 1, purchaseId: 500 + Math.floor(i / 3) }))
    const listHash = doubleChanceListHash(39, entries)
    const winningTickets = doubleChanceTickets(seed, listHash, entries, 2)
    const dc = { winners: 2, seedHash: serverSeedHash(seed), seed, entries, listHash, winningTickets }
    // the arrangement: the tickets, the Last One, then a Double Chance prize per winner
    const p = proofOf({ doubleChance: dc }, [3, 2, 3, 4, 1, 3, 4, 2, 3, 4, 9, 8, 8])
    const v = verifyView(p, kujiCheck(p), PUBLISHED)!
    expect(v.lines.map(l => [l.name, l.ok])).toEqual([['hash', true], ['lastOne', true], ['counts', true], ['dcSeed', true], ['dcWinners', true]])
    expect(v.lines[4].text).toBe(`双重机会赏：本机重算的中奖签 ${winningTickets.join(', ')}，与公布的一致`)
    expect(v.doubleChanceTickets).toEqual(winningTickets)
    expect(v.holds).toBe(true)
    // the winners published in another order than the seed draws them: named
    const other = proofOf({ doubleChance: { ...dc, winningTickets: [...winningTickets].reverse() } }, [3, 2, 3, 4, 1, 3, 4, 2, 3, 4, 9, 8, 8])
    const w = verifyView(other, kujiCheck(other), PUBLISHED)!
    expect(w.lines.find(l => l.name === 'dcWinners')?.ok).toBe(false)
    expect(w.holds).toBe(false)
  })

  test('not revealed yet: nothing to check', () => {
    const p = proofOf({ revealed: false, arrangement: undefined, salt: undefined, status: 'on_sale' })
    expect(verifyView(p, kujiCheck(p), PUBLISHED)).toBeNull()
  })

  test.each([
    ['zh', '✓ 本机重算的哈希与开售前公布的承诺值一致', '最终赏得主：李**'],
    ['en', '✓ The hash recomputed here matches the commitment published before the sale', 'Last One won by 李**']
  ] as const)('rendered on a tap (%s): the lines, each ticket\'s tier, the winner', async (locale, hashLine, winner) => {
    localeStore.setLocale(locale)
    const asked = jest.spyOn(kujiApi, 'proof').mockResolvedValue(proofOf())
    const { container } = render(<KujiVerify setId={39} published={PUBLISHED} />)
    await flush()
    expect(asked).not.toHaveBeenCalled()
    act(() => { (container.querySelector('.kuji-verify') as HTMLElement).click() })
    await flush()
    expect(asked).toHaveBeenCalledWith(39)
    expect(container.querySelector('.kuji-check__line.kuji-check__hash')?.textContent).toBe(hashLine)
    expect(container.querySelectorAll('.kuji-check__line--ok')).toHaveLength(3)
    expect(container.querySelector('.kuji-check__winner')?.textContent).toBe(winner)
    expect([...container.querySelectorAll('.kuji-check__ticket .kuji-check__tier')].map(e => e.textContent).join('')).toBe('CBCCACCBCC')
  })

  test('the first set has nothing before it to check', () => {
    const { container } = render(<KujiVerify setId={null} published={PUBLISHED} />)
    expect(container.querySelector('.kuji-check__none')?.textContent).toBe('这是本系列的第一套：它抽完后可以在这里验算。')
    expect(container.querySelector('.kuji-verify')).toBeNull()
  })
})

function KujiBoardFixture () {
  return <KujiBoard series={series} shows={0} />
}

describe('the board', () => {
  beforeEach(() => {
    // the turn's countdown asks the server's time (utils/serverClock.ts): the same as the device's here
    jest.spyOn(methods, 'callMethod').mockImplementation(async () => ({ now: new Date().toISOString() }) as never)
    jest.spyOn(Taro, 'showToast').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
    jest.spyOn(Taro, 'showLoading').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
    jest.spyOn(Taro, 'hideLoading').mockImplementation(() => Promise.resolve({ errMsg: 'ok' }) as never)
  })

  test('a visitor: the Last One, the tiers with what is left, the tickets, the recent draws, the commitment; log in to join', async () => {
    const asked = jest.spyOn(kujiApi, 'board').mockResolvedValue(board())
    const { container } = render(<KujiBoardFixture />)
    await flush()
    expect(asked).toHaveBeenCalledWith(7)
    expect(container.querySelector('.kuji-last .tier-badge')?.textContent).toBe('最终赏')
    expect(container.querySelector('.kuji-last__name')?.textContent).toBe('最终大奖')
    expect([...container.querySelectorAll('.kuji-tier .tier-badge')].map(e => e.textContent)).toEqual(['A赏', 'B赏', 'C赏'])
    expect(container.querySelector('.kuji-tier-C .kuji-tier__left')?.textContent).toBe('剩 6/7 张')
    expect(container.querySelector('.kuji-tier-C .kuji-tier__odds')?.textContent).toBe('单抽 75%')
    expect(container.querySelector('.kuji-set')?.textContent).toBe('第 2 套 · 剩余 8/10 张签')
    expect(container.querySelector('.kuji-guarantee')?.textContent).toBe('整套保证：一套 10 张签，A赏 1 张、B赏 2 张、C赏 7 张；抽完一整套必得以上全部赏品，买下最后一张签的人另得最终赏。')
    expect(container.querySelectorAll('.kuji-ticket')).toHaveLength(10)
    expect(container.querySelector('.kuji-ticket-2')?.className).toContain('kuji-ticket--mine')
    expect(container.querySelector('.kuji-ticket-2 .kuji-ticket__tier')?.textContent).toBe('★B')
    expect(container.querySelector('.kuji-ticket-5 .kuji-ticket__tier')?.textContent).toBe('C')
    expect(container.querySelector('.kuji-ticket-2')?.getAttribute('aria-label')).toBe('2 号签：B赏（你抽的）')
    expect(container.querySelector('.kuji-draw__who')?.textContent).toMatch(/^张\*\* · 2 号签 · \d\d:\d\d$/)
    expect(container.querySelector('.kuji-fair__commit')?.textContent).toBe('ab'.repeat(32))
    expect(container.querySelector('.kuji-turn--visitor')).not.toBeNull()
    expect(container.querySelector('.kuji-join, .kuji-draw-picked')).toBeNull()
  })

  test('a shopper joins the line, waits, and on their turn draws 3 at random from the unsold tickets', async () => {
    jest.useFakeTimers()
    tokenStorage.set('a-token')
    localeStore.setLocale('en')
    const go = jest.spyOn(navigation, 'navigate').mockResolvedValue('navigated')
    const until = new Date(Date.now() + 45_000).toISOString()
    const boards = [board(), board({ turn: turn({ state: 'waiting', ahead: 2, waitSeconds: 150, inLine: 3 }) }), board({ turn: turn({ state: 'drawing', until, inLine: 3 }) })]
    const asked = jest.spyOn(kujiApi, 'board').mockImplementation(async () => boards.shift() ?? board({ turn: turn({ state: 'drawing', until, inLine: 3 }) }))
    const joined = jest.spyOn(kujiApi, 'turn').mockResolvedValue(turn({ state: 'waiting', ahead: 2, waitSeconds: 150, inLine: 3 }))
    const { container } = render(<KujiBoardFixture />)
    await act(async () => { await jest.advanceTimersByTimeAsync(0) })
    expect(container.querySelector('.kuji-turn__count')?.textContent).toBe('Nobody in line now')
    act(() => { (container.querySelector('.kuji-join') as HTMLElement).click() })
    await act(async () => { await jest.advanceTimersByTimeAsync(0) })
    expect(joined).toHaveBeenCalledWith(7, 'join')
    expect(container.querySelector('.kuji-turn__position')?.textContent).toBe('You are number 3 in line')
    expect(container.querySelector('.kuji-turn__ahead')?.textContent).toBe('2 ahead of you; your turn in at most about 2:30')
    expect(container.querySelector('.kuji-waiting')?.textContent).toBe('In line · number 3')
    // asked again after pollMs: still waiting, then drawing
    await act(async () => { await jest.advanceTimersByTimeAsync(2000) })
    await act(async () => { await jest.advanceTimersByTimeAsync(2000) })
    expect(asked).toHaveBeenCalledTimes(3)
    expect(container.querySelector('.kuji-turn--drawing')).not.toBeNull()
    expect(container.querySelector('.kuji-turn__left')?.textContent).toMatch(/^0:4\d left$/)
    expect(container.querySelector('.kuji-all')?.textContent).toBe('All 8 left · ¥120.00')
    // 10 is more than the 8 left
    expect(container.querySelector('.kuji-random-10')?.className).toContain('btn--disabled')
    act(() => { (container.querySelector('.kuji-random-3') as HTMLElement).click() })
    expect(go).toHaveBeenCalledTimes(1)
    const link = go.mock.calls[0][0] as string
    const m = /^\/pages\/purchase\/index\?seriesId=7&caseId=40&slots=([\d,]+)&kuji=1$/.exec(link)
    expect(m).not.toBeNull()
    const picked = m![1].split(',').map(Number)
    expect(picked).toHaveLength(3)
    expect(new Set(picked).size).toBe(3)
    for (const x of picked) expect([2, 5]).not.toContain(x)
  })

  test('the page under another (the purchase on top): the board is not asked again until it shows', async () => {
    jest.useFakeTimers()
    tokenStorage.set('a-token')
    const asked = jest.spyOn(kujiApi, 'board').mockResolvedValue(board({ turn: turn({ state: 'waiting', ahead: 1, waitSeconds: 40, inLine: 2, pollMs: 3000 }) }))
    const { rerender } = render(<KujiBoard series={series} shows={1} hidden={false} />)
    await act(async () => { await jest.advanceTimersByTimeAsync(0) })
    expect(asked).toHaveBeenCalledTimes(1)
    rerender(<KujiBoard series={series} shows={1} hidden />)
    await act(async () => { await jest.advanceTimersByTimeAsync(30_000) })
    expect(asked).toHaveBeenCalledTimes(1)
    // shown again: the page asks (shows), and the board keeps asking as the server says
    rerender(<KujiBoard series={series} shows={2} hidden={false} />)
    await act(async () => { await jest.advanceTimersByTimeAsync(0) })
    expect(asked).toHaveBeenCalledTimes(2)
    await act(async () => { await jest.advanceTimersByTimeAsync(3000) })
    expect(asked.mock.calls.length).toBeGreaterThanOrEqual(3)
  })

  test('on their turn, tickets picked by number: 1, 3, 5 or 10 of them, then drawn', async () => {
    tokenStorage.set('a-token')
    const go = jest.spyOn(navigation, 'navigate').mockResolvedValue('navigated')
    jest.spyOn(kujiApi, 'board').mockResolvedValue(board({ turn: turn({ state: 'drawing', until: new Date(Date.now() + 30_000).toISOString(), inLine: 1 }) }))
    const { container } = render(<KujiBoardFixture />)
    await flush()
    const tap = (n: number) => act(() => { (container.querySelector(`.kuji-ticket-${n}`) as HTMLElement).click() })
    tap(1); tap(2); tap(4)
    // ticket 2 is sold: not picked
    expect(container.querySelector('.kuji-picked')?.textContent).toBe('已选 2 张：1, 4')
    expect(container.querySelector('.kuji-draw-picked')?.className).toContain('btn--disabled')
    expect(container.querySelector('.kuji-picked--bad')?.textContent).toBe('按号码抽需选 1、3、5 或 10 张')
    tap(9)
    expect(container.querySelector('.kuji-draw-picked')?.textContent).toBe('抽这 3 张 · ¥45.00')
    act(() => { (container.querySelector('.kuji-draw-picked') as HTMLElement).click() })
    expect(go).toHaveBeenCalledWith('/pages/purchase/index?seriesId=7&caseId=40&slots=1,4,9&kuji=1')
    act(() => { (container.querySelector('.kuji-all') as HTMLElement).click() })
    expect(go).toHaveBeenLastCalledWith('/pages/purchase/index?seriesId=7&caseId=40&whole=1&kuji=1')
  })

  test('a Double Chance: its prize, how many tickets win it at sell-out, its seed\'s hash (both languages)', async () => {
    const doubleChance = { prize: design(8, 'double_chance', 0, { name: { zh: '签名海报', en: 'Signed poster' } }), winners: 2, seedHash: 'ef'.repeat(32) }
    jest.spyOn(kujiApi, 'board').mockResolvedValue(board({ doubleChance }))
    const { container, unmount } = render(<KujiBoardFixture />)
    await flush()
    expect(container.querySelector('.kuji-double .tier-badge')?.textContent).toBe('双重机会赏')
    expect(container.querySelector('.kuji-double__name')?.textContent).toBe('签名海报')
    expect(container.querySelector('.kuji-double__how')?.textContent).toBe('整套抽完时，从这一套的签里抽出 2 张，每张的买家各得一份')
    expect(container.querySelector('.kuji-double__seed')?.textContent).toContain('ef'.repeat(32))
    // not a tier of tickets
    expect([...container.querySelectorAll('.kuji-tier .tier-badge')].map(e => e.textContent)).toEqual(['A赏', 'B赏', 'C赏'])
    unmount()
    localeStore.setLocale('en')
    const en = render(<KujiBoardFixture />)
    await flush()
    expect(en.container.querySelector('.kuji-double .tier-badge')?.textContent).toBe('Double Chance')
    expect(en.container.querySelector('.kuji-double__how')?.textContent).toBe('When the set sells out, 2 tickets of it are drawn; each one\'s buyer wins this prize')
    expect(en.container.querySelector('.kuji-fair__label')?.textContent).toBe("This set's commitment")
  })

  test('no set left: sold out, with the prizes and "notify me"; nothing to draw', async () => {
    jest.spyOn(kujiApi, 'board').mockRejectedValue(new ApiError(409, '已售罄', { reason: 'sold_out' }))
    const { container } = render(<KujiBoardFixture />)
    await flush()
    expect(container.querySelector('.kuji-sold-out .detail-sold-out__text')?.textContent).toBe('这一系列的签已全部抽完，现在抽不了。补货后会开新的一套。')
    expect(container.querySelector('.kuji-last__name')?.textContent).toBe('最终大奖')
    expect(container.querySelector('.buy-sold-out')).not.toBeNull()
    expect(container.querySelectorAll('.kuji-ticket')).toHaveLength(0)
  })
})
