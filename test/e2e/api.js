/**
 * The e2e suites' direct calls to the shop's API (for the steps a suite sets up rather than tests):
 * GET without a body, else a JSON POST; English messages; the token as a Bearer header. Answers the
 * envelope's data, and throws with the path and the whole envelope when its code is not 200.
 */
async function api (base, route, body, token) {
  const res = await fetch(`${base}/dev-api${route}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'accept-language': 'en', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json = await res.json()
  if (json.code !== 200) throw new Error(`${route}: ${JSON.stringify(json)}`)
  return json.data
}

module.exports = { api }
