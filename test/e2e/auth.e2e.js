/**
 * Accounts end to end, from the login page to the database and back: register, log out, log in by
 * password, log in by e-mail code (read from the local SMTP server), see the user on the profile
 * page, log out.
 */
const assert = require('node:assert/strict')
const fs = require('node:fs')
const path = require('node:path')
const { openPhonePage, SHOTS } = require('./browser')

async function run ({ base, smtp }) {
  const { page, errors, close, input } = await openPhonePage({ locale: 'zh-CN' })
  try {
    const token = () => page.evaluate(() => localStorage.getItem('h5_token'))
    const agree = async () => {
      if (await page.locator('.login-check--on').count() === 0) await page.locator('.login-check').click()
    }
    const onHome = async (who) => {
      await page.waitForURL(/\/pagesA\/home\/index/)
      await page.locator('.home-hello', { hasText: who }).waitFor()
    }
    const logoutFromProfile = async (who) => {
      await page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
      await page.locator('.profile-name', { hasText: who }).waitFor()
      await page.locator('.profile-logout').click()
      await page.locator('.taro-model__confirm').click()
      await page.locator('.login-submit').waitFor()
      assert.equal(await token(), null)
    }

    const suffix = Date.now().toString(36)
    const userName = `e2e_${suffix}`
    const password = 'pass-1234'

    // 1. register with a user name
    await page.goto(`${base}/`, { waitUntil: 'networkidle' })
    await page.locator('.login-switch').click()
    await page.locator('.register-by-user_name').click()
    // a name with an invisible character (it would read as another's) is refused on the form, by name
    await input('input-account').fill(`e2e\u200b_${suffix}`)
    await input('input-password').fill(password)
    await agree()
    await page.locator('.login-submit').click()
    await page.getByText('用户名不能含有看不见的字符（如零宽空格）').first().waitFor()
    await page.screenshot({ path: path.join(SHOTS, 'auth-register-invisible-zh.png') })
    assert.equal(await token(), null)
    await input('input-account').fill(userName)
    await page.screenshot({ path: path.join(SHOTS, 'auth-register-zh.png') })
    await page.locator('.login-submit').click()
    await onHome(userName)
    assert.ok(await token(), 'a token is stored under h5_token')

    // the session survives a reload (the stored token restores it through getUserInfo)
    await page.reload({ waitUntil: 'networkidle' })
    await page.locator('.home-hello', { hasText: userName }).waitFor()

    // 2. log out from the profile page
    await logoutFromProfile(userName)

    // 3. a wrong password is refused with a message and no token
    await input('input-account').fill(userName)
    await input('input-password').fill('wrong-pass')
    await agree()
    await page.locator('.login-submit').click()
    await page.getByText(/登录失败/).first().waitFor()
    assert.equal(await token(), null)

    // 4. log in by password
    await input('input-password').fill(password)
    await page.locator('.login-submit').click()
    await onHome(userName)
    await logoutFromProfile(userName)

    // 5. log in by e-mail code: the code is read from the local SMTP server
    const email = `e2e.${suffix}@example.com`
    await page.locator('.tab-email').click()
    await input('input-email').fill(email)
    const before = smtp.mails.length
    await page.locator('.login-code-btn').click()
    await page.locator('.login-code-btn--wait').waitFor()
    const code = await smtp.codeFor(email, { after: before })
    assert.match(code, /^\d{6}$/)
    await input('input-code').fill(code)
    await agree()
    await page.locator('.login-submit').click()
    await page.waitForURL(/\/pagesA\/home\/index/)

    // the collection loads and exports a real xlsx (readable columns: test/server/after-draw.test.ts)
    await page.goto(`${base}/pagesA/my_blind_box/index`, { waitUntil: 'networkidle' })
    await page.locator('.filter-warehouse').click()
    // a new user's warehouse is empty, and the page says what to do next
    await page.getByText('仓库是空的').first().waitFor()
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.collection-export').click()])
    assert.match(download.suggestedFilename(), /^prizes_[A-Za-z0-9]{8}\.xlsx$/)
    const file = await download.path()
    const head = fs.readFileSync(file).subarray(0, 4)
    assert.deepEqual([...head], [0x50, 0x4b, 0x03, 0x04], 'an xlsx file is a zip archive')

    // 6. the profile page shows this user; log out
    await page.goto(`${base}/pagesA/profile/index`, { waitUntil: 'networkidle' })
    await page.locator('.profile-sub', { hasText: email }).waitFor()
    await page.waitForTimeout(300)
    await page.screenshot({ path: path.join(SHOTS, 'auth-profile-zh.png') })
    await page.locator('.profile-logout').click()
    await page.locator('.taro-model__confirm').click()
    await page.locator('.login-submit').waitFor()
    assert.equal(await token(), null)

    // the used code cannot log in again
    await page.locator('.tab-email').click()
    await input('input-email').fill(email)
    await input('input-code').fill(code)
    await agree()
    await page.locator('.login-submit').click()
    await page.getByText(/登录失败/).first().waitFor()
    assert.equal(await token(), null)

    assert.deepEqual(errors, [])
  } finally {
    await close()
  }
}

module.exports = { name: 'accounts: register, log out, password, e-mail code, profile', run }
