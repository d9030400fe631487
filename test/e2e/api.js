/**
 * The e2e suites' direct calls to the shop's API (for the steps a suite sets up rather than tests):
 * GET without a body, else a JSON POST; English messages; the token as a Bearer header. Answers the
 * envelope's data, and throws with the path and the whole envelope when its code is not 200.
 *
 * A registration comes from a loopback address of its own (127.0.0.2 and on; Linux answers the whole
 * 127/8 on lo), as new shoppers come from networks of their own: the shop allows 10 registrations an
 * hour per address (RULES.registerPerIp), and the suites together set up more shoppers than that.
 */
const http = require('node:http')

let nextHost = 1
const freshSource = () => `127.0.0.${(nextHost++ % 250) + 2}`

function api (base, route, body, token) {
  const url = new URL(`${base}/dev-api${route}`)
  const payload = body === undefined ? null : Buffer.from(JSON.stringify(body))
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: payload ? 'POST' : 'GET',
      localAddress: route.startsWith('/login/register') ? freshSource() : undefined,
      headers: {
        'accept-language': 'en',
        ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {})
      }
    }, res => {
      const chunks = []
      res.on('data', c => chunks.push(c))
      res.on('end', () => {
        try {
          const json = JSON.parse(Buffer.concat(chunks).toString('utf8'))
          if (json.code !== 200) reject(new Error(`${route}: ${JSON.stringify(json)}`))
          else resolve(json.data)
        } catch (err) {
          reject(new Error(`${route}: HTTP ${res.statusCode}, not JSON (${err.message})`))
        }
      })
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(payload ?? undefined)
  })
}

module.exports = { api }
