/**
 * The series editor (types/editor.ts) on both databases: uploads (real images recognised by their bytes,
 * the size limit, anything else refused, served back under /media/u/ byte for byte), drafts saved half
 * done, publishing with every problem named at once, a published series keeping its composition,
 * price and odds, retiring (its open case revealed), versions against lost updates, and the audit log.
 */
import { testDialects } from './support/db'
import { createTestApp, loginToken, makeUser, nextIp, post, PREFIX, type TestApp } from './support/app'
import { buy, currentCaseId, makeShopper, topUp } from './support/shop'
import sharp from 'sharp'
import { makePng, multipartBody } from '../support/png'
import { UPLOAD_MAX_BYTES } from '../../types/limits'
import { seriesOdds } from '../../types/odds'
import { changesNothing } from '../../server/src/domain/ops/audit'
import { createSeries } from '../../server/src/domain/catalogue/catalogue'
import { DEMO_SERIES, demoSeriesInput } from '../../server/src/seed'

const COLOURS: Array<[number, number, number]> = [[230, 80, 80], [80, 180, 90], [70, 110, 220], [240, 190, 60], [150, 90, 200], [40, 190, 190], [250, 130, 40]]

describe.each(testDialects())('the series editor on %s', (dialect) => {
  let t: TestApp
  let op: { id: number; token: string }
  let shopperToken: string

  const as = (token: string, url: string, body: unknown, lang = 'en') => post(t.app, url, body, { token, lang, ip: nextIp() })
  const upload = async (bytes: Buffer, o: { field?: string; type?: string; token?: string; lang?: string } = {}) => {
    const form = multipartBody(o.field ?? 'file', 'design.png', o.type ?? 'image/png', bytes)
    const res = await t.app.inject({
      method: 'POST', url: `${PREFIX}/api/operator/upload`, payload: form.body, remoteAddress: nextIp(),
      headers: { 'content-type': form.contentType, authorization: `Bearer ${o.token ?? op.token}`, 'accept-language': o.lang ?? 'en' }
    })
    return { status: res.statusCode, body: res.json() }
  }
  const draft = (images: Array<string | null>, over: Record<string, unknown> = {}) => ({
    title: { zh: '星际旅人', en: 'Star Travellers' },
    description: { zh: '六位在星海间旅行的小伙伴。', en: 'Six friends travelling the stars.' },
    rules: { zh: '每箱 5 盒。', en: '5 boxes per case.' },
    cover: null,
    priceCents: 3900,
    hiddenCasePpm: 100000,
    designs: images.map((image, i) => ({
      name: { zh: `旅人${i + 1}`, en: `Traveller ${i + 1}` },
      rarity: i === images.length - 1 ? 'hidden' : i === 0 ? 'rare' : 'regular',
      image,
      referenceValueCents: i === images.length - 1 ? 30000 : 4500,
      recycleValueCents: i === images.length - 1 ? 9000 : 1000
    })),
    ...over
  })

  /** Counts `n` figures of every design of a series into the warehouse (the stock screen's save). */
  const stockUp = async (seriesId: number, n = 50) => {
    const s = (await as(op.token, '/api/operator/stock', { seriesId })).body.data
    const r = await as(op.token, '/api/operator/stockSave', { seriesId, designs: s.designs.map((d: { designId: number; stock: number }) => ({ designId: d.designId, stock: n, was: d.stock })) })
    expect(r.body.code).toBe(200)
    return r.body.data
  }

  beforeAll(async () => {
    t = await createTestApp(dialect)
    const u = await makeUser(t.db, t.clock, { role: 'operator' })
    op = { id: Number(u.id), token: await loginToken(t.app, u.user_name!, u.password) }
    const s = await makeUser(t.db, t.clock)
    shopperToken = await loginToken(t.app, s.user_name!, s.password)
  })
  afterAll(async () => { await t?.close() })

  test('uploads: an image is recognised by its bytes, stored once, and served back byte for byte', async () => {
    const png = makePng(64, 48, COLOURS[0])
    const r = await upload(png)
    expect(r.body).toMatchObject({ code: 200, data: { contentType: 'image/png', bytes: png.length, width: 64, height: 48, url: expect.stringMatching(/^\/media\/u\/[0-9a-f]{64}\.png$/) } })
    const again = await upload(png, { type: 'application/octet-stream' })
    expect(again.body.data.url).toBe(r.body.data.url)
    expect(Number((await t.db.selectFrom('media').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBe(1)
    const served = await t.app.inject({ method: 'GET', url: r.body.data.url })
    expect(served.statusCode).toBe(200)
    expect(served.headers['content-type']).toBe('image/png')
    expect(served.headers['cache-control']).toContain('immutable')
    expect(Buffer.compare(served.rawPayload, png)).toBe(0)
    // another extension for the same hash, or a hash never uploaded: not found
    expect((await t.app.inject({ method: 'GET', url: r.body.data.url.replace('.png', '.gif') })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: `/media/u/${'0'.repeat(64)}.png` })).statusCode).toBe(404)
    expect((await t.app.inject({ method: 'GET', url: '/media/u/..%2F..%2Fetc%2Fpasswd' })).statusCode).toBe(404)
  })

  test('uploads are served scaled to the width asked (?w=), as WebP, never up; a bad width is refused by name', async () => {
    // a phone photo: 1000 x 750 of noise as JPEG, a few hundred kilobytes
    const photo = await sharp({ create: { width: 1000, height: 750, channels: 3, background: '#8a6', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).jpeg({ quality: 85 }).toBuffer()
    const url = (await upload(photo, { type: 'image/jpeg' })).body.data.url as string
    expect(url).toMatch(/\.jpg$/)
    const thumb = await t.app.inject({ method: 'GET', url: `${url}?w=150` })
    expect(thumb.statusCode).toBe(200)
    expect(thumb.headers['content-type']).toBe('image/webp')
    expect(thumb.headers['cache-control']).toContain('immutable')
    // the smallest listed width at least as wide as asked, the height in proportion
    expect(await sharp(thumb.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 160, height: 120 })
    expect(thumb.rawPayload.length).toBeLessThan(photo.length / 10)
    // asked again: the same bytes (kept), and the same for a width that rounds to it
    expect(Buffer.compare((await t.app.inject({ method: 'GET', url: `${url}?w=160` })).rawPayload, thumb.rawPayload)).toBe(0)
    // wider than the photo: the photo itself; no width: the photo itself
    for (const asIs of [`${url}?w=4000`, url]) {
      const r = await t.app.inject({ method: 'GET', url: asIs })
      expect(r.headers['content-type']).toBe('image/jpeg')
      expect(Buffer.compare(r.rawPayload, photo)).toBe(0)
    }
    for (const bad of ['abc', '0', '1.5', '-3', '10001', '', '99999999']) {
      const r = await t.app.inject({ method: 'GET', url: `${url}?w=${bad}`, headers: { 'accept-language': 'zh' } })
      expect({ bad, status: r.statusCode }).toEqual({ bad, status: 400 })
      expect(r.json()).toMatchObject({ code: 400, data: { field: 'w' }, message: expect.stringContaining('w') })
    }
    expect((await t.app.inject({ method: 'GET', url: `${url}?w=100&w=200` })).statusCode).toBe(400)
    // the demo art: 256 px, 96 asked
    const art = await t.app.inject({ method: 'GET', url: '/media/art/1f381.webp?w=96' })
    expect(await sharp(art.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 96 })
    // a GIF stays as it is (it may move)
    const gif = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#36c' } }).gif().toBuffer()
    const gifUrl = (await upload(gif, { type: 'image/gif' })).body.data.url as string
    const g = await t.app.inject({ method: 'GET', url: `${gifUrl}?w=96` })
    expect(g.headers['content-type']).toBe('image/gif')
    expect(Buffer.compare(g.rawPayload, gif)).toBe(0)
  })

  test('uploads: too large, not an image, no file or another field are refused by name and store nothing', async () => {
    const count = async () => Number((await t.db.selectFrom('media').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)
    const before = await count()
    const big = Buffer.concat([makePng(8, 8, COLOURS[1]), Buffer.alloc(UPLOAD_MAX_BYTES)])
    expect((await upload(big, { lang: 'zh' })).body).toMatchObject({ code: 422, message: '图片不能超过 2 MB', data: { field: 'file' } })
    // a script named .png, an SVG (which could carry script), a PNG header cut short
    expect((await upload(Buffer.from('<script>alert(1)</script>'))).body).toMatchObject({ code: 400, data: { field: 'file' }, message: 'Only PNG, JPEG, WebP or GIF images can be uploaded' })
    expect((await upload(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), { type: 'image/svg+xml' })).body).toMatchObject({ code: 400, data: { field: 'file' } })
    expect((await upload(makePng(8, 8, COLOURS[1]).subarray(0, 20))).body).toMatchObject({ code: 400, data: { field: 'file' } })
    expect((await upload(Buffer.alloc(0))).body).toMatchObject({ code: 400, data: { field: 'file' }, message: 'No file selected' })
    expect((await upload(makePng(8, 8, COLOURS[1]), { field: 'picture', lang: 'zh' })).body).toMatchObject({ code: 400, message: '未选择文件' })
    const json = await post(t.app, '/api/operator/upload', { file: 'x' }, { token: op.token, ip: nextIp() })
    expect(json.body).toMatchObject({ code: 400, data: { field: 'file' } })
    // a shopper never gets as far as the file
    expect((await upload(makePng(8, 8, COLOURS[1]), { token: shopperToken })).body.code).toBe(403)
    expect(await count()).toBe(before)
  })

  test('a draft is saved half done, published only when every rule holds, and then sells at the previewed odds', async () => {
    const urls: string[] = []
    for (const c of COLOURS.slice(0, 6)) urls.push((await upload(makePng(96, 96, c))).body.data.url)
    // half done: no images yet, one language missing
    const first = await as(op.token, '/api/operator/seriesSave', draft([null, null, null, null, null, null], { title: { zh: '星际旅人', en: '' } }))
    expect(first.body).toMatchObject({ code: 200, data: { status: 'draft', caseSize: 5 } })
    const id = first.body.data.id
    const v0 = first.body.data.version
    // a draft is nowhere in the shop
    expect((await post(t.app, '/api/seriesDetail', { seriesId: id })).body.code).toBe(404)
    expect((await post(t.app, '/api/seriesList', { page: 1, size: 50 })).body.data.list.map((s: { id: number }) => s.id)).not.toContain(id)

    const blocked = await as(op.token, '/api/operator/seriesPublish', { seriesId: id }, 'zh')
    expect(blocked.body.code).toBe(422)
    const fields = blocked.body.data.problems.map((p: { field: string }) => p.field)
    // no stock counted yet: every design a case holds (the hidden one too, with its chance) is named
    expect(fields).toEqual(['title.en', ...[0, 1, 2, 3, 4, 5].map(i => `designs.${i}.image`), ...[0, 1, 2, 3, 4, 5].map(i => `designs.${i}.stock`)])
    expect(blocked.body.data.problems[1].message).toBe('第 1 个款式缺少图片')
    expect(blocked.body.data.problems[7].message).toContain('第 1 个款式在仓库里没有库存')
    // a problem names its field as the editor labels it (issue 21)
    expect(blocked.body.data.problems[0].message).toBe('标题（英文）未填写')
    expect(blocked.body.message).toContain('13')
    await stockUp(id)

    // the images and the title: saved over the version it was opened at
    const ids = first.body.data.designs.map((d: { id: number }) => d.id)
    const full = draft(urls, { id, version: v0, title: { zh: '星际旅人', en: 'Star Travellers' } })
    full.designs = full.designs.map((d, i) => ({ ...d, id: ids[i] }))
    const saved = await as(op.token, '/api/operator/seriesSave', full)
    expect(saved.body).toMatchObject({ code: 200, data: { version: v0 + 1 } })
    // a second editor still on the first version is told, and changes nothing
    const stale = await as(op.token, '/api/operator/seriesSave', { ...full, version: v0, priceCents: 100 })
    expect(stale.body.code).toBe(409)
    expect((await as(op.token, '/api/operator/series', { seriesId: id })).body.data.priceCents).toBe(3900)

    const published = await as(op.token, '/api/operator/seriesPublish', { seriesId: id })
    expect(published.body).toMatchObject({ code: 200, data: { status: 'on_sale' } })
    const detail = (await post(t.app, '/api/seriesDetail', { seriesId: id })).body.data
    expect(detail.title).toEqual({ zh: '星际旅人', en: 'Star Travellers' })
    const odds = seriesOdds(published.body.data.designs, 100000)
    for (const d of detail.designs) expect(d.oddsPpm).toBe(odds.perDesignPpm.get(d.id))
    expect(detail.oddsPpm).toEqual(odds.perRarityPpm)

    const shopper = await makeShopper(t.app, t.db, t.clock)
    await topUp(t.app, shopper, 10000)
    const caseId = await currentCaseId(t.app, id, shopper.token)
    const bought = await buy(t.app, shopper, { caseId, slots: [1], priceCents: 3900 })
    expect(bought.body.code).toBe(200)

    // published: texts, names and images may be corrected; price, odds and composition may not
    const current = (await as(op.token, '/api/operator/series', { seriesId: id })).body.data
    const base = { ...full, id, version: current.version, designs: current.designs.map((d: Record<string, unknown>) => ({ id: d.id, name: d.name, rarity: d.rarity, image: d.image, referenceValueCents: d.referenceValueCents, recycleValueCents: d.recycleValueCents })) }
    for (const [change, field] of [
      [{ priceCents: 4900 }, 'priceCents'],
      [{ hiddenCasePpm: 200000 }, 'hiddenCasePpm'],
      [{ designs: base.designs.slice(1) }, 'designs'],
      [{ designs: base.designs.map((d: Record<string, unknown>, i: number) => i === 2 ? { ...d, recycleValueCents: 1200 } : d) }, 'designs.2.recycleValueCents'],
      [{ designs: base.designs.map((d: Record<string, unknown>, i: number) => i === 1 ? { ...d, rarity: 'rare' } : d) }, 'designs.1.rarity']
    ] as const) {
      const r = await as(op.token, '/api/operator/seriesSave', { ...base, ...change })
      expect([field, r.body.code, r.body.data]).toEqual([field, 422, { field }])
    }
    const renamed = await as(op.token, '/api/operator/seriesSave', { ...base, title: { zh: '星际旅人 第一弹', en: 'Star Travellers 1' }, designs: base.designs.map((d: Record<string, unknown>, i: number) => i === 0 ? { ...d, name: { zh: '领航员', en: 'Navigator' } } : d) })
    expect(renamed.body).toMatchObject({ code: 200, data: { title: { en: 'Star Travellers 1' }, status: 'on_sale' } })
    expect((await post(t.app, '/api/seriesDetail', { seriesId: id })).body.data.designs.map((d: { name: { en: string } }) => d.name.en)).toContain('Navigator')

    // retiring reveals the open case
    const retired = await as(op.token, '/api/operator/seriesRetire', { seriesId: id })
    expect(retired.body).toMatchObject({ code: 200, data: { status: 'retired' } })
    const c = await t.db.selectFrom('cases').selectAll().where('id', '=', caseId).executeTakeFirstOrThrow()
    expect(c.status).toBe('retired')
    expect(c.revealed_at).not.toBeNull()
    expect((await post(t.app, '/api/caseProof', { caseId })).body.data.arrangement).toHaveLength(5)
    expect((await as(op.token, '/api/operator/seriesRetire', { seriesId: id })).body.code).toBe(422)
    expect((await as(op.token, '/api/operator/seriesPublish', { seriesId: id })).body.code).toBe(422)

    // the audit log holds every step with the state before and after
    const audit = await t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'series').where('entity_id', '=', id).orderBy('id').execute()
    expect(audit.map(a => a.action)).toEqual(['series.create', 'series.stock', 'series.update', 'series.publish', 'series.update', 'series.retire'])
    expect(audit.every(a => Number(a.actor_id) === op.id)).toBe(true)
    expect(Object.values(JSON.parse(audit[1].detail).after.stock)).toEqual([50, 50, 50, 50, 50, 50])
    const update = JSON.parse(audit[4].detail)
    expect(update.before.title.en).toBe('Star Travellers')
    expect(update.after.title.en).toBe('Star Travellers 1')
    expect(update.after.designs[0].name.en).toBe('Navigator')

    // the list by status
    const list = (await as(op.token, '/api/operator/seriesList', { page: 1, size: 50, status: 'retired' })).body.data
    expect(list.list.find((s: { id: number }) => s.id === id)).toMatchObject({ status: 'retired', designCount: 6, boxesSold: 1, casesOnSale: 0 })
    expect(list.counts.retired).toBeGreaterThanOrEqual(1)
  })

  test('a design picture described (alt): written after publishing too, shown to shoppers, kept by a save without it, too long refused by field', async () => {
    const urls: string[] = []
    for (const c of COLOURS.slice(0, 6)) urls.push((await upload(makePng(64, 64, c))).body.data.url)
    const made = (await as(op.token, '/api/operator/seriesSave', draft(urls))).body.data
    expect(made.designs.map((d: { alt: unknown }) => d.alt)).toEqual(made.designs.map(() => ({ zh: '', en: '' })))
    await stockUp(made.id)
    expect((await as(op.token, '/api/operator/seriesPublish', { seriesId: made.id })).body.code).toBe(200)
    // no description yet: the shop sends none, and the page names the picture by the design's name
    expect((await post(t.app, '/api/seriesDetail', { seriesId: made.id })).body.data.designs.every((d: Record<string, unknown>) => !('alt' in d))).toBe(true)

    const current = (await as(op.token, '/api/operator/series', { seriesId: made.id })).body.data
    const designs = current.designs.map((d: Record<string, unknown>) => ({ id: d.id, name: d.name, rarity: d.rarity, image: d.image, referenceValueCents: d.referenceValueCents, recycleValueCents: d.recycleValueCents }))
    const alt = { zh: '  红色宇航服的旅人举着星图 ', en: 'A traveller in a red spacesuit holding a star chart' }
    const body = { ...draft(urls), id: made.id, version: current.version, designs: designs.map((d: Record<string, unknown>, i: number) => i === 0 ? { ...d, alt } : d) }
    const saved = await as(op.token, '/api/operator/seriesSave', body)
    expect(saved.body.code).toBe(200)
    expect(saved.body.data.designs[0].alt).toEqual({ zh: '红色宇航服的旅人举着星图', en: alt.en })
    const shown = (await post(t.app, '/api/seriesDetail', { seriesId: made.id })).body.data.designs
    expect(shown.find((d: { id: number }) => d.id === designs[0].id).alt).toEqual({ zh: '红色宇航服的旅人举着星图', en: alt.en })

    // a save that does not send alt (an older page) keeps it
    const kept = await as(op.token, '/api/operator/seriesSave', { ...draft(urls), id: made.id, version: saved.body.data.version, designs })
    expect(kept.body.code).toBe(200)
    expect(kept.body.data.designs[0].alt.en).toBe(alt.en)

    // too long: refused by its field, in the shopper's language, nothing changed
    const tooLong = await as(op.token, '/api/operator/seriesSave', { ...body, version: kept.body.data.version, designs: designs.map((d: Record<string, unknown>, i: number) => i === 1 ? { ...d, alt: { zh: '长'.repeat(201), en: '' } } : d) }, 'zh')
    expect(tooLong.body.code).toBe(400)
    expect(tooLong.body.data.field).toBe('designs.1.alt.zh')
    expect((await as(op.token, '/api/operator/series', { seriesId: made.id })).body.data.version).toBe(kept.body.data.version)
  })

  test('publishing names the rules of odds and money: the composition, and a box recycling for more than it costs', async () => {
    const urls: string[] = []
    for (const c of COLOURS.slice(0, 4)) urls.push((await upload(makePng(32, 32, c))).body.data.url)
    const make = async (over: Record<string, unknown>) => {
      const r = await as(op.token, '/api/operator/seriesSave', draft(urls, over))
      expect(r.body.code).toBe(200)
      await stockUp(r.body.data.id)
      return (await as(op.token, '/api/operator/seriesPublish', { seriesId: r.body.data.id })).body
    }
    // a hidden design without a hidden chance
    expect((await make({ hiddenCasePpm: 0 })).data.problems).toEqual([{ field: 'hiddenCasePpm', message: 'With a hidden design, the hidden chance must be above 0' }])
    // recycling pays more on average than the price: refused
    const greedy = draft(urls)
    greedy.designs = greedy.designs.map(d => ({ ...d, referenceValueCents: 5000, recycleValueCents: 4000 }))
    expect((await make({ designs: greedy.designs })).data.problems.map((p: { field: string }) => p.field)).toEqual(['designs'])
    // too few designs
    expect((await make({ designs: draft(urls).designs.slice(0, 2).map(d => ({ ...d, rarity: 'regular' })), hiddenCasePpm: 0 })).data.problems.map((p: { field: string }) => p.field)).toEqual(['designs'])
  })

  test('a design worth less than one box: publishing is refused naming it until the operator acknowledges it; the acknowledgement is audited', async () => {
    const urls: string[] = []
    for (const c of COLOURS.slice(0, 5)) urls.push((await upload(makePng(24, 24, c))).body.data.url)
    const cheap = draft(urls)
    // regular designs worth 12.00, 39.00 (the price: not below it) and 25.00
    cheap.designs = cheap.designs.map((d, i) => ({ ...d, referenceValueCents: [4500, 1200, 3900, 2500, 30000][i] }))
    const made = await as(op.token, '/api/operator/seriesSave', cheap)
    expect(made.body.code).toBe(200)
    const seriesId = made.body.data.id
    const ids = made.body.data.designs.map((d: { id: number }) => d.id)
    await stockUp(seriesId)
    const status = async () => (await as(op.token, '/api/operator/series', { seriesId })).body.data.status

    const refused = await as(op.token, '/api/operator/seriesPublish', { seriesId }, 'zh')
    expect(refused.body.code).toBe(409)
    expect(refused.body.data).toEqual({
      reason: 'low_value',
      priceCents: 3900,
      designs: [
        { designId: ids[1], name: { zh: '旅人2', en: 'Traveller 2' }, referenceValueCents: 1200 },
        { designId: ids[3], name: { zh: '旅人4', en: 'Traveller 4' }, referenceValueCents: 2500 }
      ]
    })
    expect(refused.body.message).toBe('2 个款式的参考价值低于单盒价格 ¥39.00：旅人2、旅人4。微信审核要求盲盒商品的每个款式都值得单盒价格；确认后才能上架')
    expect((await as(op.token, '/api/operator/seriesPublish', { seriesId })).body.message).toContain('Traveller 2, Traveller 4')
    // acknowledging only one of them is not enough, and nothing changed
    const partly = await as(op.token, '/api/operator/seriesPublish', { seriesId, lowValueAcknowledged: [ids[1]] })
    expect([partly.body.code, partly.body.data.designs.length]).toEqual([409, 2])
    expect(await status()).toBe('draft')
    expect(await t.db.selectFrom('cases').select('id').where('series_id', '=', seriesId).execute()).toEqual([])

    const published = await as(op.token, '/api/operator/seriesPublish', { seriesId, lowValueAcknowledged: [ids[1], ids[3]] })
    expect(published.body).toMatchObject({ code: 200, data: { status: 'on_sale' } })
    const audit = await t.db.selectFrom('audit_log').select(['action', 'detail']).where('entity', '=', 'series').where('entity_id', '=', seriesId).where('action', '=', 'series.publish').executeTakeFirstOrThrow()
    const detail = typeof audit.detail === 'string' ? JSON.parse(audit.detail) : audit.detail
    expect(detail.lowValueAcknowledged.map((d: { designId: number; referenceValueCents: number }) => [d.designId, d.referenceValueCents])).toEqual([[ids[1], 1200], [ids[3], 2500]])
    // a bad list is refused by field
    const bad = await as(op.token, '/api/operator/seriesPublish', { seriesId, lowValueAcknowledged: ['x'] })
    expect([bad.body.code, bad.body.data.field]).toEqual([400, 'lowValueAcknowledged.0'])
  })

  test('bad input is refused by field and changes nothing', async () => {
    const png = (await upload(makePng(20, 20, COLOURS[6]))).body.data.url
    const before = await t.db.selectFrom('series').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ priceCents: 20001 }, 'priceCents'],
      [{ priceCents: 0 }, 'priceCents'],
      [{ title: { zh: 'x'.repeat(61), en: 'x' } }, 'title.zh'],
      [{ title: { zh: 'a\nb', en: 'x' } }, 'title.zh'],
      [{ cover: 'https://evil.example/x.png' }, 'cover'],
      [{ cover: `/media/u/${'a'.repeat(64)}.png` }, 'cover'],
      [{ hiddenCasePpm: 1000001 }, 'hiddenCasePpm']
    ]
    for (const [over, field] of cases) {
      const r = await as(op.token, '/api/operator/seriesSave', draft([png, png, png], over))
      expect([field, r.body.code, r.body.data?.field]).toEqual([field, 400, field])
    }
    const recycle = draft([png, png, png])
    recycle.designs[1].recycleValueCents = recycle.designs[1].referenceValueCents + 1
    expect((await as(op.token, '/api/operator/seriesSave', recycle, 'zh')).body).toMatchObject({ code: 400, data: { field: 'designs.1.recycleValueCents' } })
    // another series' design
    const other = (await as(op.token, '/api/operator/seriesSave', draft([png, png, png]))).body.data
    const mine = (await as(op.token, '/api/operator/seriesSave', draft([png, png, png]))).body.data
    const steal = draft([png, png, png], { id: mine.id, version: mine.version })
    steal.designs = steal.designs.map((d, i) => ({ ...d, id: i === 0 ? other.designs[0].id : mine.designs[i].id }))
    expect((await as(op.token, '/api/operator/seriesSave', steal)).body).toMatchObject({ code: 400, data: { field: 'designs.0.id' } })
    expect((await as(op.token, '/api/operator/series', { seriesId: 999999 })).body.code).toBe(404)
    const after = await t.db.selectFrom('series').select(eb => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(before.n) + 2)
  })

  test('two saves of one version at once: one wins, the other is told (409), nothing is half applied', async () => {
    const png = (await upload(makePng(24, 24, COLOURS[5]))).body.data.url
    const s = (await as(op.token, '/api/operator/seriesSave', draft([png, png, png, png]))).body.data
    const body = (price: number) => ({ ...draft([png, png, png, png], { id: s.id, version: s.version, priceCents: price }), designs: s.designs.map((d: Record<string, unknown>) => ({ id: d.id, name: d.name, rarity: d.rarity, image: d.image, referenceValueCents: d.referenceValueCents, recycleValueCents: d.recycleValueCents })) })
    const [a, b] = await Promise.all([as(op.token, '/api/operator/seriesSave', body(1500)), as(op.token, '/api/operator/seriesSave', body(2500))])
    expect([a.body.code, b.body.code].sort()).toEqual([200, 409])
    const winner = a.body.code === 200 ? 1500 : 2500
    const now = (await as(op.token, '/api/operator/series', { seriesId: s.id })).body.data
    expect(now).toMatchObject({ priceCents: winner, version: s.version + 1 })
    expect(now.designs).toHaveLength(4)
  })

  test('the audit log: a save that changes nothing writes no entry; a seeded series is recorded like an edited one', async () => {
    const png = (await upload(makePng(24, 24, COLOURS[4]))).body.data.url
    const s = (await as(op.token, '/api/operator/seriesSave', draft([png, png, png, png]))).body.data
    const entries = () => t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'series').where('entity_id', '=', s.id).orderBy('id').execute()
    const same = { ...draft([png, png, png, png], { id: s.id, version: s.version }), designs: s.designs.map((d: Record<string, unknown>) => ({ id: d.id, name: d.name, rarity: d.rarity, image: d.image, referenceValueCents: d.referenceValueCents, recycleValueCents: d.recycleValueCents })) }
    const unchanged = await as(op.token, '/api/operator/seriesSave', same)
    expect(unchanged.body.code).toBe(200)
    expect((await entries()).map(a => a.action)).toEqual(['series.create'])
    const changed = await as(op.token, '/api/operator/seriesSave', { ...same, version: unchanged.body.data.version, priceCents: 4200 })
    expect(changed.body.code).toBe(200)
    const after = await entries()
    expect(after.map(a => a.action)).toEqual(['series.create', 'series.update'])
    expect(JSON.parse(after[1].detail)).toMatchObject({ before: { priceCents: 3900 }, after: { priceCents: 4200 } })
    // the comparison does not depend on the order the keys were written in
    const n = Number((await t.db.selectFrom('audit_log').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
    expect(changesNothing({ before: { a: 1, b: { c: [1, 2] } }, after: { b: { c: [1, 2] }, a: 1 } })).toBe(true)
    expect(changesNothing({ before: null, after: { a: 1 } })).toBe(false)
    expect(changesNothing({ before: { a: 1 }, after: { a: 2 } })).toBe(false)

    // a seeded series (catalogue.createSeries, the demo shop): designs by id with both names and image
    const seeded = await createSeries(t.db, t.clock.now, demoSeriesInput(DEMO_SERIES[0]))
    const [created] = await t.db.selectFrom('audit_log').selectAll().where('entity', '=', 'series').where('entity_id', '=', seeded).execute()
    const detail = JSON.parse(created.detail)
    const designs = await t.db.selectFrom('designs').selectAll().where('series_id', '=', seeded).orderBy('sort').execute()
    expect(detail.before).toBeNull()
    expect(Object.keys(detail.after).sort()).toEqual(['caseSize', 'cover', 'description', 'designs', 'hiddenCasePpm', 'priceCents', 'rules', 'status', 'title'])
    expect(detail.after.designs).toEqual(designs.map(d => ({
      id: Number(d.id), name: { zh: d.name, en: d.name_en }, rarity: d.rarity, image: d.image,
      referenceValueCents: Number(d.reference_value_cents), recycleValueCents: Number(d.recycle_value_cents)
    })))
    expect(Number((await t.db.selectFrom('audit_log').select(eb => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(n + 1)
  })
})
