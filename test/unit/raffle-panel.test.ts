/**
 * The raffle panel's logic (src/pagesA/blind_box_detail/raffle.ts): the view each state of
 * RaffleView gives, when the panel asks again, and the check's lines from types/raffleCheck.ts, green
 * for a true draw and red where a list, a winner or the seed was changed.
 */
import type { RaffleProof, RaffleView } from '~types/raffle'
import { raffleCheck, raffleListHash, raffleWinners } from '~types/raffleCheck'
import { serverSeedHash } from '~types/fair'
import zh from '@/locales/zh'
import en from '@/locales/en'
import { raffleCheckLines, raffleNextPoll, raffleStage, shortHash, RAFFLE_WAIT_MS } from '@/pagesA/blind_box_detail/raffle'

const NOW = Date.parse('2026-12-01T12:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()
const view = (over: Partial<RaffleView>): RaffleView => ({
  dropId: 7, seriesId: 3, state: 'open', opensAt: iso(NOW - 60_000), closesAt: iso(NOW + 3_600_000), claimMinutes: 30, places: 2, entries: 5,
  rounds: 0, seedHash: 'ab'.repeat(32), seed: null, listHash: null, mine: 'none', myCode: null, wonRound: null, claimUntil: null, needsPhone: false, ...over
})

describe('raffleStage', () => {
  it.each([
    [{ state: 'before' }, 'before'],
    [{ state: 'open' }, 'open'],
    [{ state: 'open', mine: 'entered', myCode: 'c1' }, 'entered'],
    [{ state: 'closed', mine: 'entered' }, 'drawing'],
    [{ state: 'closed', mine: 'none' }, 'missed'],
    [{ state: 'drawn', mine: 'won' }, 'won'],
    [{ state: 'drawn', mine: 'lost' }, 'lost'],
    [{ state: 'drawn', mine: 'expired' }, 'expired'],
    [{ state: 'drawn', mine: 'entered' }, 'waiting'],
    [{ state: 'drawn', mine: 'none' }, 'missed']
  ] as Array<[Partial<RaffleView>, string]>)('%j -> %s', (over, stage) => {
    expect(raffleStage(view(over))).toBe(stage)
  })
})

describe('raffleNextPoll', () => {
  it('asks at the opening, at the close, at the end of a winner\'s time, and every while during a draw', () => {
    const before = view({ state: 'before', opensAt: iso(NOW + 10_000) })
    expect(raffleNextPoll(before, 'before', NOW)).toBe(11_500)
    const open = view({})
    expect(raffleNextPoll(open, 'open', NOW)).toBe(3_601_500)
    const won = view({ state: 'drawn', mine: 'won', claimUntil: iso(NOW + 60_000) })
    expect(raffleNextPoll(won, 'won', NOW)).toBe(61_500)
    expect(raffleNextPoll(view({ state: 'closed', mine: 'entered' }), 'drawing', NOW)).toBe(RAFFLE_WAIT_MS)
    expect(raffleNextPoll(view({ state: 'drawn', mine: 'lost' }), 'lost', NOW)).toBeNull()
    // far away: not armed (the next showing of the page asks)
    expect(raffleNextPoll(view({ closesAt: iso(NOW + 10 * 86_400_000) }), 'open', NOW)).toBeNull()
  })
})

it('shortHash keeps both ends', () => {
  expect(shortHash('0123456789abcdef0123456789abcdef', 4)).toBe('0123…cdef')
  expect(shortHash('abc')).toBe('abc')
})

describe('the check\'s lines', () => {
  const seed = 'f00d'.repeat(16)
  const codes = ['0a1b2c3d4e5f6071', '1111111111111111', '2222222222222222', '3333333333333333', '4444444444444444', '5555555555555555']
  const listHash = raffleListHash(7, codes)
  const [r1, r2] = raffleWinners(seed, listHash, codes, [2, 1])
  const proof: RaffleProof = {
    dropId: 7, places: 2, seedHash: serverSeedHash(seed), seed, listHash, codes,
    rounds: [{ round: 1, places: 2, winners: [...r1].sort() }, { round: 2, places: 1, winners: r2 }]
  }
  const lines = (p: RaffleProof, mine: string | null) => raffleCheckLines(raffleCheck(p, mine)!, p, mine)

  it('a true draw: every line green, one per round, and the shopper\'s code found', () => {
    const l = lines(proof, codes[3])
    expect(l.map(x => [x.name, x.ok, x.key])).toEqual([
      ['seed', true, 'raffle.seedOk'], ['list', true, 'raffle.listOk'], ['order', true, 'raffle.orderOk'],
      ['round-1', true, 'raffle.roundOk'], ['round-2', true, 'raffle.roundOk'], ['mine', true, 'raffle.mineOk']
    ])
    expect(l[1].params).toEqual({ n: 6 })
    expect(l[3].params).toEqual({ round: 1, n: 2 })
    // no code (did not enter): no line of their own
    expect(lines(proof, null).map(x => x.name)).not.toContain('mine')
  })

  it('a changed seed, list, winner or a code not on the list: its line red', () => {
    expect(lines({ ...proof, seedHash: 'cd'.repeat(32) }, null).find(x => x.name === 'seed')).toMatchObject({ ok: false, key: 'raffle.seedBad' })
    const swapped = [...codes]
    swapped[1] = '1111111111111112'
    const l = lines({ ...proof, codes: swapped }, null)
    expect(l.find(x => x.name === 'list')).toMatchObject({ ok: false, key: 'raffle.listBad' })
    const unsorted = lines({ ...proof, codes: [codes[1], codes[0], ...codes.slice(2)], listHash: raffleListHash(7, [codes[1], codes[0], ...codes.slice(2)]) }, null)
    expect(unsorted.find(x => x.name === 'order')!.ok).toBe(false)
    const loser = codes.find(c => !r1.includes(c) && !r2.includes(c))!
    const other = lines({ ...proof, rounds: [{ ...proof.rounds[0], winners: [loser, r1[1]] }, proof.rounds[1]] }, null)
    expect(other.find(x => x.name === 'round-1')).toMatchObject({ ok: false, key: 'raffle.roundBad' })
    expect(lines(proof, 'ffffffffffffffff').find(x => x.name === 'mine')).toMatchObject({ ok: false, key: 'raffle.mineBad', params: { code: 'ffffffffffffffff' } })
  })

  it('every key of the lines has words in both languages, with no field names', () => {
    const all = lines(proof, codes[0]).concat(lines({ ...proof, seedHash: 'x', codes: [...codes].reverse() }, 'zz'))
    for (const dict of [zh, en]) {
      for (const l of all) {
        const text = l.key.split('.').reduce<unknown>((at, k) => (at as Record<string, unknown>)[k], dict)
        expect(typeof text).toBe('string')
        expect(text).not.toMatch(/seedHash|listHash|claimUntil|myCode/)
      }
    }
  })
})
