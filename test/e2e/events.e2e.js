/**
 * Launch events in Chromium (issue 24 item 3), against the local Tencent services (route, web map),
 * Juhe (trains, flights) and SMTP server:
 *  - the operator has announced an event of a series on sale in Shanghai, three hours from now; in the
 *    editor's Events tab it is listed, its venue is changed through the form and saved;
 *  - a new shopper (en), in Shanghai already, finds it on the series page's banner, opens it: the venue on the
 *    web map with the route from where the phone is, the driving distance and time and the steps;
 *    chooses Beijing as where they leave from (remembered on the device) and sees trains and flights
 *    to Shanghai that day (the days the queries take); asks to be reminded by mail, gives an address,
 *    and the mail comes (the reminder is due at once: the event starts within 24 hours);
 *  - the operator cancels it; its page says so and offers no reminder.
 */
const assert = require('node:assert/strict')
const { openPhonePage, passwordLogin } = require('./browser')
const { api } = require('./api')

/** The phone: People's Square, Shanghai (the shopper came the day before). */
const HERE = { latitude: 31.23136, longitude: 121.47004 }
const HOUR = 3_600_000

async function run ({ base, smtp, fakes }) {
  const op = await api(base, '/login/passwd', { user_name: 'operator', password: 'operator123' })
  const series = (await api(base, '/api/seriesList', { page: 1, size: 10 })).list[0]
  const startsAt = new Date(Date.now() + 3 * HOUR)
  startsAt.setUTCMinutes(0, 0, 0)
  const event = await api(base, '/api/operator/eventSave', {
    seriesId: series.id,
    title: { zh: '上海首发会', en: 'Shanghai launch' },
    city: '上海',
    venue: '静安嘉里中心',
    address: '上海市静安区南京西路 1515 号',
    latitude: 31.224361,
    longitude: 121.446235,
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 5 * HOUR).toISOString()
  }, op.token)

  // ---- the operator: the Events tab lists it; the venue is corrected through the form
  {
    const o = await openPhonePage({ locale: 'zh-CN' })
    try {
      await passwordLogin(o, base, 'operator', 'operator123')
      await o.page.goto(`${base}/pagesA/editor/index`, { waitUntil: 'networkidle' })
      await o.page.locator('.editor-tab-events').click()
      const row = o.page.locator(`.op-event-${event.id}`)
      await row.waitFor()
      assert.match(await row.innerText(), /上海首发会/)
      assert.match(await row.innerText(), /待提醒 0/)
      await row.locator('.op-event-edit').click()
      const venue = o.page.locator('.op-event-venue input')
      assert.equal(await venue.inputValue(), '静安嘉里中心')
      await venue.fill('静安嘉里中心 B1 中庭')
      await o.page.locator(`.op-event-series-${series.id}.chip--on`).waitFor()
      await o.shot('editor-event-form-zh.png')
      // a blank address is stopped on the page, by its field
      await o.page.locator('.op-event-address input').fill('')
      await o.page.locator('.op-event-save').click()
      await o.page.locator('.op-event-problem-address').waitFor()
      await o.page.locator('.op-event-address input').fill('上海市静安区南京西路 1515 号')
      await o.page.locator('.op-event-save').click()
      await o.page.locator('.op-event-form').waitFor({ state: 'detached' })
      await o.page.waitForFunction(id => document.querySelector(`.op-event-${id}`)?.textContent.includes('B1 中庭'), event.id)
      await o.shot('editor-events-zh.png')
      assert.deepEqual(o.errors, [])
    } finally {
      await o.close()
    }
  }

  // ---- the shopper: the banner, the page, the route, travel, the reminder
  const userName = `event_${Date.now().toString(36)}`
  await api(base, '/login/register?table=user', { user_name: userName, password: 'event-pass' })
  const s = await openPhonePage({ locale: 'en-US', geolocation: HERE })
  const email = `${userName}@example.test`
  try {
    await passwordLogin(s, base, userName, 'event-pass')
    await s.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${series.id}`, { waitUntil: 'networkidle' })
    const banner = s.page.locator(`.event-banner-${event.id}`)
    await banner.waitFor()
    assert.match(await banner.innerText(), /Launch event: Shanghai launch/)
    await banner.click()
    await s.page.waitForURL(/\/pagesA\/event\/index\?id=/)
    await s.page.locator('.event-head__title').waitFor()
    assert.equal(await s.page.locator('.event-head__title').innerText(), 'Shanghai launch')
    assert.match(await s.page.locator('.event-venue__name').innerText(), /Shanghai · 静安嘉里中心 B1 中庭/)

    // the venue on the web map, the shopper's dot, the route from People's Square and its steps
    await s.page.locator('.tmap-fake').waitFor()
    await s.page.waitForFunction(() => document.querySelectorAll('.tmap-fake-pin').length === 2)
    await s.page.locator('.tmap-fake-route').waitFor()
    await s.page.locator('.event-route').waitFor()
    assert.match(await s.page.locator('.event-route').innerText(), /^[\d.]+ (m|km) by car · about \d+ min$/)
    await s.page.locator('.event-steps__step').first().waitFor()

    // from Beijing (the first city of the list): trains and flights that day, from the local Juhe
    const trainsBefore = fakes.juhe.calls.length
    await s.page.locator('.event-from').click()
    await s.page.locator('.taro-picker__hd .taro-picker__action').last().click()
    await s.page.locator('.event-train').first().waitFor()
    await s.page.locator('.event-flight').first().waitFor()
    const asked = fakes.juhe.calls.slice(trainsBefore)
    const day = new Date(startsAt.getTime() + 8 * HOUR).toISOString().slice(0, 10)
    assert.deepEqual(asked.map(c => c.api).sort(), ['flight', 'train'])
    const train = asked.find(c => c.api === 'train')
    assert.deepEqual([train.departure_station, train.arrival_station, train.date], ['北京', '上海', day])
    const flight = asked.find(c => c.api === 'flight')
    assert.deepEqual([flight.departure, flight.arrival, flight.departureDate], ['BJS', 'SHA', day])
    assert.match(await s.page.locator('.event-train').first().innerText(), /G1/)
    assert.match(await s.page.locator('.event-from').innerText(), /From Beijing/)
    await s.shot('event-page-en.png')

    // the city is remembered: a reload asks again from Beijing at once
    await s.page.reload({ waitUntil: 'networkidle' })
    await s.page.locator('.event-train').first().waitFor()

    // remind me: no address on the account, so one is asked; a wrong one is refused by its field
    await s.page.locator('.event-remind').click()
    await s.page.locator('.event-email-input input, input.event-email-input').first().fill('nobody')
    await s.page.locator('.event-email-save').click()
    await s.page.getByText(/e-?mail/i).first().waitFor()
    await s.page.locator('.event-email-input input, input.event-email-input').first().fill(email)
    await s.page.locator('.event-email-save').click()
    await s.page.locator('.event-reminder__state').waitFor()
    // due at once (the event starts within a day): the sweep sends it within seconds
    const deadline = Date.now() + 20_000
    let mail = null
    while (!mail && Date.now() < deadline) {
      mail = smtp.mails.find(m => m.to.includes(email))
      if (!mail) await new Promise(r => setTimeout(r, 300))
    }
    assert.ok(mail, 'the reminder mail came')
    assert.match(mail.raw, /Launch event reminder/)
    await s.page.reload({ waitUntil: 'networkidle' })
    await s.page.waitForFunction(() => /Reminder sent/.test(document.querySelector('.event-reminder__state')?.textContent ?? ''))
    await s.shot('event-reminded-en.png')

    // the operator calls it off: the page says so, no travel or reminder any more, the banner is gone
    await api(base, '/api/operator/eventSave', { ...(await api(base, '/api/operator/events', {}, op.token)).list.filter(e => e.id === event.id).map(e => ({ id: e.id, seriesId: e.seriesId, title: e.title, city: e.city.zh, venue: e.venue, address: e.address, latitude: e.latitude, longitude: e.longitude, startsAt: e.startsAt, endsAt: e.endsAt }))[0], status: 'cancelled' }, op.token)
    await s.page.reload({ waitUntil: 'networkidle' })
    await s.page.locator('.event-cancelled').waitFor()
    assert.equal(await s.page.locator('.event-remind, .event-travel').count(), 0)
    await s.page.goto(`${base}/pagesA/blind_box_detail/index?seriesId=${series.id}`, { waitUntil: 'networkidle' })
    await s.page.locator('.slot').first().waitFor()
    assert.equal(await s.page.locator(`.event-banner-${event.id}`).count(), 0)
    assert.deepEqual(s.errors, [])
  } catch (e) {
    await s.shot('event-failure.png').catch(() => undefined)
    throw e
  } finally {
    await s.close()
  }
}

module.exports = { name: 'launch events: announce, route, trains and flights, reminder by mail', run }
