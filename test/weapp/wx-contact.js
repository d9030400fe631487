/**
 * WeChat's customer service session (客服会话), which the simulator does not have, as WeChat documents it:
 *   https://developers.weixin.qq.com/miniprogram/dev/component/button.html (open-type="contact",
 *     session-from, send-message-title, send-message-path, send-message-img, show-message-card, bindcontact)
 *   https://developers.weixin.qq.com/miniprogram/dev/framework/open-ability/customer-message/customer-message.html
 *     ("需要将 button 组件 open-type 的值设置为 contact，当用户点击后就会进入客服会话，如果用户在会话中点击了小程序消息，
 *     则会返回到小程序，开发者可以通过 bindcontact 事件回调获取到用户所点消息的页面路径 path 和对应的参数 query")
 * The rules the fake keeps:
 *  - only the user's tap on a <button> rendered with open-type "contact" opens a session; there is no
 *    wx.* call that opens it, and tapping any other element opens none (tapContact throws);
 *  - the session carries session-from (what the shop's message server is told), and offers a message
 *    card only with show-message-card: its title is send-message-title (default: the page's title) and
 *    its path send-message-path (default: the page's share path);
 *  - a card tapped in the session returns to the mini-program: the button's contact event fires with
 *    detail {path, query}, the path as a message's pagepath is written ("pages/index/index", no leading
 *    slash) and the query an object.
 * The button's properties are read from Taro's render data through the compiled template's aliases
 * (base.wxml), as ./wx-privacy.js reads open-type: the simulator keeps none of a built-in's properties.
 */
const fs = require('node:fs')
const path = require('node:path')

/** The alias (i.<alias>) under which base.wxml's <button> passes each of these attributes. */
function buttonAliases (dist) {
  const wxml = fs.readFileSync(path.join(dist, 'base.wxml'), 'utf8')
  const tag = /<button\b[^>]*>/.exec(wxml)
  if (!tag) throw new Error('base.wxml: no <button> in the compiled template')
  const alias = (attr) => {
    const m = new RegExp(`\\s${attr}="\\{\\{(?:xs\\.b\\()?i\\.(\\w+)`).exec(tag[0])
    return m ? m[1] : null
  }
  // the template Taro renders a <button> with: the render node's nn names it
  const template = /<template name="tmpl_0_(\d+)">\s*<button\b/.exec(wxml)
  return {
    buttonNn: template ? Number(template[1]) : null,
    openType: alias('open-type'),
    sessionFrom: alias('session-from'),
    title: alias('send-message-title'),
    path: alias('send-message-path'),
    card: alias('show-message-card')
  }
}

function renderNode (data, sid, seen = new Set()) {
  if (!data || typeof data !== 'object' || seen.has(data)) return null
  seen.add(data)
  if (data.sid === sid) return data
  for (const v of Object.values(data)) {
    const found = renderNode(v, sid, seen)
    if (found) return found
  }
  return null
}

/**
 * The user taps `selector` on `page`: a session opens (recorded in state.contactSessions) when it is an
 * open-type="contact" button; `pageTitle` and `sharePath` are what WeChat would default the card to.
 * Answers the session, whose tapCard() is the user tapping the card in it.
 */
function tapContact (state, page, selector, dist, { pageTitle = '', sharePath = '' } = {}) {
  const button = page.querySelector(selector)
  if (!button) throw new Error(`no ${selector} on the page`)
  const el = button._exparserNode
  const node = renderNode(page.instance.data, el.__attributes['data-sid'])
  const a = buttonAliases(dist)
  const openType = String((node && a.openType && node[a.openType]) || '')
  if (!node || a.buttonNn === null || Number(node.nn) !== a.buttonNn) throw new Error(`${selector} is not a <button> (${node && node.nn}): WeChat opens no session`)
  if (openType !== 'contact') throw new Error(`${selector} is not an open-type="contact" button (open-type "${openType}"): WeChat opens no session`)
  const pick = (k) => (node && a[k] ? node[a[k]] : undefined)
  const showCard = pick('card') === true || pick('card') === 'true'
  const session = {
    sessionFrom: pick('sessionFrom') === undefined ? '' : String(pick('sessionFrom')),
    card: showCard ? { title: String(pick('title') || pageTitle), path: String(pick('path') || sharePath) } : null,
    /** The user taps the card in the session: back in the mini-program, the button's contact event. */
    tapCard () {
      if (!session.card) throw new Error('the session shows no card (show-message-card is off)')
      const [p, q = ''] = session.card.path.split('?')
      const detail = { path: p.replace(/^\/+/, ''), query: Object.fromEntries(new URLSearchParams(q)) }
      button.dispatchEvent('contact', { detail })
      return detail
    }
  }
  state.contactSessions = state.contactSessions || []
  state.contactSessions.push(session)
  return session
}

module.exports = { tapContact }
