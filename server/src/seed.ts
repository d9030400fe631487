/**
 * A demo shop for a first start outside production:
 *  - accounts: a shopper and an operator (only when the users table is empty)
 *  - catalogue: three series on sale with art from @lobehub/fluent-emoji-3d (only when there is no
 *    series yet), each with its first case made and committed
 * It never touches a database in use. Nobody gets money: top-ups go through the sandbox channel.
 */
import { setSeriesTags } from './domain/catalogue/seriesSearch'
import type { Db } from './db/index'
import type { Role } from './db/schema'
import type { Clock } from './core/clock'
import type { I18nText, Rarity } from '../../types/shop'
import { hashPassword } from './security/passwords'
import { insertUser } from './domain/account/users'
import { createSeries, type SeriesInput } from './domain/catalogue/catalogue'
import { createRecipe } from './domain/prizes/combine'
import { artUrl } from './domain/catalogue/art'

export interface DemoLogin { role: Role; userName: string; password: string; phone: string; email: string }

export const DEMO_LOGINS: readonly DemoLogin[] = [
  { role: 'shopper', userName: 'shopper', password: 'shopper123', phone: '13800000001', email: 'shopper@example.com' },
  { role: 'operator', userName: 'operator', password: 'operator123', phone: '13800000002', email: 'operator@example.com' }
]

type DemoDesign = [code: string, zh: string, en: string]

interface DemoSeries {
  title: I18nText
  /** Theme tags shoppers filter by on home. */
  tags?: I18nText[]
  description: I18nText
  cover: string
  priceCents: number
  /** One case in `hiddenOneIn` carries the hidden design. */
  hiddenOneIn: number
  regular: DemoDesign[]
  rare: DemoDesign[]
  hidden: DemoDesign
}

export const DEMO_SERIES: readonly DemoSeries[] = [
  {
    title: { zh: '萌宠乐园', en: 'Pet Party' },
    tags: [{ zh: '萌宠', en: 'Pets' }, { zh: '治愈', en: 'Cosy' }],
    description: { zh: '九只软萌小动物和三位森林之王，偶尔还有一只独角兽溜进箱子。', en: 'Nine cuddly pets and three kings of the forest; now and then a unicorn sneaks into a case.' },
    cover: '1f381',
    priceCents: 3900,
    hiddenOneIn: 12,
    regular: [['1f436', '小狗', 'Puppy'], ['1f431', '小猫', 'Kitty'], ['1f42d', '小鼠', 'Mouse'], ['1f439', '仓鼠', 'Hamster'], ['1f430', '兔兔', 'Bunny'],
      ['1f98a', '狐狸', 'Fox'], ['1f43b', '小熊', 'Bear'], ['1f43c', '熊猫', 'Panda'], ['1f428', '考拉', 'Koala']],
    rare: [['1f42f', '老虎', 'Tiger'], ['1f981', '狮子', 'Lion'], ['1f42e', '奶牛', 'Cow']],
    hidden: ['1f984', '独角兽', 'Unicorn']
  },
  {
    title: { zh: '甜品派对', en: 'Sweet Treats' },
    tags: [{ zh: '美食', en: 'Food' }, { zh: '治愈', en: 'Cosy' }],
    description: { zh: '一整箱甜点：甜甜圈、纸杯蛋糕、布丁……隐藏款是一颗闪亮的钻石糖。', en: 'A whole case of desserts: donuts, cupcakes, custard... the hidden one is a sparkling gem candy.' },
    cover: '1f9c1',
    priceCents: 5900,
    hiddenOneIn: 24,
    regular: [['1f369', '甜甜圈', 'Donut'], ['1f36a', '曲奇', 'Cookie'], ['1f382', '生日蛋糕', 'Birthday Cake'], ['1f370', '草莓蛋糕', 'Shortcake'], ['1f9c1', '纸杯蛋糕', 'Cupcake'],
      ['1f36b', '巧克力', 'Chocolate'], ['1f36c', '糖果', 'Candy'], ['1f36d', '棒棒糖', 'Lollipop'], ['1f36e', '布丁', 'Custard']],
    rare: [['1f36f', '蜂蜜罐', 'Honey Pot'], ['1f366', '甜筒', 'Soft Serve'], ['1f367', '刨冰', 'Shaved Ice']],
    hidden: ['1f48e', '钻石糖', 'Gem Candy']
  },
  {
    title: { zh: '太空漫游', en: 'Space Trip' },
    tags: [{ zh: '科幻', en: 'Sci-fi' }],
    description: { zh: '火箭、飞碟、行星与彗星，一箱装下整个银河；像素怪兽在极少数箱子里等你。', en: 'Rockets, saucers, planets and comets: a galaxy in one case. A pixel monster waits in a rare few.' },
    cover: '1f680',
    priceCents: 6900,
    hiddenOneIn: 72,
    regular: [['1f680', '火箭', 'Rocket'], ['1f6f8', '飞碟', 'Flying Saucer'], ['1f319', '弯月', 'Crescent Moon'], ['2b50', '星星', 'Star'], ['1fa90', '土星', 'Ringed Planet'],
      ['2604-fe0f', '彗星', 'Comet'], ['1f30d', '地球', 'Earth'], ['1f47d', '外星人', 'Alien'], ['1f6f0-fe0f', '卫星', 'Satellite']],
    rare: [['1f52d', '望远镜', 'Telescope'], ['1f320', '流星', 'Shooting Star'], ['1f31e', '太阳', 'Smiling Sun']],
    hidden: ['1f47e', '像素怪兽', 'Pixel Monster']
  }
]

function rulesOf (s: DemoSeries): I18nText {
  const n = s.regular.length + s.rare.length
  const price = (s.priceCents / 100).toFixed(0)
  return {
    zh: `每箱 ${n} 盒：${s.regular.length} 款常规款与 ${s.rare.length} 款稀有款各一只，整箱购买即得全套。每箱有 1/${s.hiddenOneIn} 的概率把其中一只常规款换成隐藏款。` +
      `每箱开售时已用安全随机数打乱并公布承诺哈希，售罄后公开排列与盐值，可自行验证。单盒 ${price} 元；奖品可回收为抵扣金（不可提现）。`,
    en: `Each case holds ${n} boxes: each of the ${s.regular.length} regular and ${s.rare.length} rare designs once, so a whole case is a full set. ` +
      `One case in ${s.hiddenOneIn} has one regular design swapped for the hidden one. Every case is shuffled with a secure random generator and its commitment hash published ` +
      `before sale; the arrangement and salt are revealed when it sells out, so anyone can check it. ${price} yuan a box; prizes can be recycled for credit (not withdrawable).`
  }
}

export function demoSeriesInput (s: DemoSeries): SeriesInput {
  const design = ([code, zh, en]: DemoDesign, rarity: Rarity) => {
    const factor = rarity === 'regular' ? 1 : rarity === 'rare' ? 2.5 : 12
    const recycle = rarity === 'regular' ? 0.25 : rarity === 'rare' ? 0.6 : 4
    return {
      name: { zh, en },
      image: artUrl(code),
      rarity,
      referenceValueCents: Math.round(s.priceCents * factor),
      recycleValueCents: Math.round(s.priceCents * recycle),
      stock: demoStock(rarity, s.hiddenOneIn)
    }
  }
  return {
    title: s.title,
    description: s.description,
    rules: rulesOf(s),
    cover: artUrl(s.cover),
    priceCents: s.priceCents,
    hiddenCasePpm: Math.round(1_000_000 / s.hiddenOneIn),
    status: 'on_sale',
    designs: [
      ...s.regular.map(d => design(d, 'regular')),
      ...s.rare.map(d => design(d, 'rare')),
      design(s.hidden, 'hidden')
    ]
  }
}

/**
 * The demo warehouse: DEMO_CASES cases' worth of each regular and rare design, and of the hidden design
 * twice what those cases are expected to draw (a case needs a free hidden figure to be made at all, so
 * a warehouse short of hidden figures sells out early: docs/decisions/stock.md).
 */
const DEMO_CASES = 400
function demoStock (rarity: 'regular' | 'rare' | 'hidden', hiddenOneIn: number): number {
  return rarity === 'hidden' ? Math.ceil((2 * DEMO_CASES) / hiddenOneIn) : DEMO_CASES
}

/** Sets of the demo kuji series the warehouse holds. */
const DEMO_KUJI_SETS = 40

/**
 * The demo 一番赏 series (types/kuji.ts): 24 tickets a set in five tiers, and the Last One. Every prize is
 * worth more than a ticket, and a ticket recycled is worth less on average than it costs.
 */
export const DEMO_KUJI: SeriesInput = (() => {
  const priceCents = 3900
  const tier = (code: string, zh: string, en: string, t: string, tickets: number, rarity: Rarity, referenceValueCents: number, recycleValueCents: number) => ({
    name: { zh, en }, image: artUrl(code), rarity, referenceValueCents, recycleValueCents, tier: t, tickets,
    stock: DEMO_KUJI_SETS * (t === 'last_one' ? 1 : tickets)
  })
  return {
    kind: 'kuji',
    title: { zh: '龙腾一番赏', en: 'Dragon Kuji' },
    description: { zh: '一套 24 张签，A 赏金龙只有一只；抽走最后一张签的人还能拿到最终赏「龙王」。', en: 'A set of 24 tickets with one Golden Dragon as prize A; whoever draws the last ticket also takes the Last One, the Dragon King.' },
    rules: {
      zh: '每套 24 张签：A 赏 1 张、B 赏 2 张、C 赏 3 张、D 赏 6 张、E 赏 12 张，抽完最后一张签的人另得最终赏。每套开售前已打乱并公布承诺哈希，售罄后公开每张签的赏级与盐值，可自行验证。大家轮流抽同一套，每人每轮限时。每张签 39 元；奖品可回收为抵扣金（不可提现）。',
      en: 'Each set holds 24 tickets: 1 A, 2 B, 3 C, 6 D and 12 E; whoever draws the final ticket also gets the Last One. Every set is shuffled and its commitment published before sale; when it sells out each ticket\'s tier and the salt are revealed, so anyone can check it. Everyone takes turns at the same set, each turn timed. 39 yuan a ticket; prizes can be recycled for credit (not withdrawable).'
    },
    cover: artUrl('1f409'),
    priceCents,
    hiddenCasePpm: 0,
    status: 'on_sale',
    designs: [
      tier('1f409', '金龙', 'Golden Dragon', 'A', 1, 'rare', 69900, 12000),
      tier('1f451', '王冠', 'Crown', 'B', 2, 'rare', 29900, 5000),
      tier('1f3c6', '奖杯', 'Trophy', 'C', 3, 'regular', 12900, 3000),
      tier('1f3ee', '灯笼', 'Lantern', 'D', 6, 'regular', 6900, 1500),
      tier('1f38f', '鲤鱼旗', 'Carp Streamer', 'E', 12, 'regular', 4500, 900),
      tier('1f432', '龙王', 'Dragon King', 'last_one', 0, 'rare', 99900, 15000)
    ]
  }
})()

/** The demo series (the blind-box ones and the kuji one), if there is no series yet; answers how many were made. */
export async function seedCatalogue (db: Db, clock: Clock): Promise<number> {
  const { n } = await db.selectFrom('series').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  if (Number(n) > 0) return 0
  for (const s of DEMO_SERIES) {
    const seriesId = await createSeries(db, clock, demoSeriesInput(s))
    if (s.tags) await setSeriesTags(db, clock, seriesId, s.tags)
    await seedRecipes(db, clock, seriesId)
  }
  await createSeries(db, clock, DEMO_KUJI)
  return DEMO_SERIES.length + 1
}

/**
 * Two published recipes per demo series:
 *  - three regular items for one draw where every design can come, the rare ones at 8 and the hidden
 *    one at 2 against 10 for each regular one;
 *  - two of one design (any rarity) for a rare-or-better draw (rare 30 each, hidden 10).
 */
export async function seedRecipes (db: Db, clock: Clock, seriesId: number): Promise<number[]> {
  const designs = await db.selectFrom('designs').select(['id', 'rarity']).where('series_id', '=', seriesId).orderBy('sort').orderBy('id').execute()
  const weightOf = { regular: 10, rare: 8, hidden: 2 } as const
  return [
    await createRecipe(db, clock, {
      seriesId, name: { zh: '三合一：任意三件普通款', en: 'Three in one: any three regular' }, inputKind: 'rarity', inputRarity: 'regular', inputCount: 3,
      pool: designs.map(d => ({ designId: Number(d.id), weight: weightOf[d.rarity] }))
    }),
    await createRecipe(db, clock, {
      seriesId, name: { zh: '双倍升级：任意两件同款', en: 'Double up: any two of one design' }, inputKind: 'same_design', inputRarity: null, inputCount: 2,
      pool: designs.filter(d => d.rarity !== 'regular').map(d => ({ designId: Number(d.id), weight: d.rarity === 'rare' ? 30 : 10 }))
    })
  ]
}

/** The demo catalogue (when empty), then the demo accounts if there are no users yet; answers the logins created. */
/** The demo shop's pickup counters (自提): two in Haidian, one across town (beyond the 5 km list from Zhongguancun). */
export const DEMO_PICKUP_POINTS = [
  { name: '拾盒 中关村店', address: '北京市海淀区中关村大街15号 中关村广场购物中心 B1', hours: '每天 10:00-22:00', latitude: 39.98263, longitude: 116.31161 },
  { name: '拾盒 五道口店', address: '北京市海淀区成府路28号 五道口购物中心 2 层', hours: '周一至周五 11:00-21:00，周末 10:00-22:00', latitude: 39.9929, longitude: 116.3376 },
  { name: '拾盒 国贸店', address: '北京市朝阳区建国门外大街1号 国贸商城 B1', hours: '每天 10:00-22:00', latitude: 39.9088, longitude: 116.459 }
] as const

async function seedPickupPoints (db: Db, clock: Clock): Promise<void> {
  const { n } = await db.selectFrom('pickup_points').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  if (Number(n) > 0) return
  const now = new Date(clock()).toISOString()
  await db.insertInto('pickup_points').values(DEMO_PICKUP_POINTS.map(p => ({ ...p, active: 1, updated_by: null, created_at: now, updated_at: now }))).execute()
}

/** The demo launch event: the first series on sale, in Beijing's Sanlitun, ten days after the shop first starts, 14:00-20:00 China time. */
async function seedEvents (db: Db, clock: Clock): Promise<void> {
  const { n } = await db.selectFrom('launch_events').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  if (Number(n) > 0) return
  const series = await db.selectFrom('series').select(['id']).where('status', '=', 'on_sale').orderBy('id').executeTakeFirst()
  if (!series) return
  const day = new Date(clock() + 8 * 3_600_000 + 10 * 86_400_000).toISOString().slice(0, 10)
  const now = new Date(clock()).toISOString()
  await db.insertInto('launch_events').values({
    series_id: Number(series.id), title: '线下首发会 · 三里屯', title_en: 'Launch day in Sanlitun', city: '北京',
    venue: '三里屯太古里 南区 中庭', address: '北京市朝阳区三里屯路19号', latitude: 39.93482, longitude: 116.45393,
    starts_at: new Date(`${day}T14:00:00+08:00`).toISOString(), ends_at: new Date(`${day}T20:00:00+08:00`).toISOString(),
    status: 'announced', updated_by: null, created_at: now, updated_at: now
  }).execute()
}

export async function seedDemo (db: Db, clock: Clock): Promise<DemoLogin[]> {
  await seedCatalogue(db, clock)
  await seedPickupPoints(db, clock)
  await seedEvents(db, clock)
  const { n } = await db.selectFrom('users').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  if (Number(n) > 0) return []
  for (const login of DEMO_LOGINS) {
    await insertUser(db, clock, {
      user_name: login.userName,
      phone: login.phone,
      email: login.email,
      nickname: login.role === 'operator' ? 'Demo operator' : 'Demo shopper',
      role: login.role,
      password_hash: await hashPassword(login.password)
    })
  }
  return [...DEMO_LOGINS]
}
