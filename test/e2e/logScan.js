/**
 * Personal data in the server's log (issue 26 item 5): the JSON lines of a whole e2e run are searched
 * for what must never be there: mainland mobile numbers, e-mail addresses, session tokens (43 characters
 * of base64url: 256 random bits), WeChat openids (the local WeChat's, and the 28-character shape of a
 * real one) and one-time codes given as a field. The startup banner (not JSON: the demo logins,
 * development only) is not the log.
 *
 * Secrets in query values (issue 48 item 5): the run sends requests carrying a secret of its own
 * (CANARY_REQUESTS: as ?token=, ?access_token=, a bare key, on the API, a page, a media file and a URL
 * Fastify refuses before routing); the secret must appear nowhere in the log, and each request must
 * have been logged with its key and a redacted value (else the scan would prove nothing).
 */
const PATTERNS = [
  // not the fraction of a number: a response time of 32.13733399997 ms is not a phone
  ['phone', /(?<![0-9A-Za-z]|[0-9]\.)1[3-9][0-9]{9}(?![0-9A-Za-z])/g],
  ['e-mail', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g],
  ['token', /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g],
  ['openid', /(?<![A-Za-z0-9_-])o(?:_fake_[a-z_0-9]+|_event_[a-z_0-9]+|[A-Za-z0-9_-]{27})(?![A-Za-z0-9_-])/g],
  ['code', /"(?:code|js_code|smsCode|verifyCode)"\s*:\s*"[0-9]{4,8}"/g]
]

/** The requests that carry the run's secret (a path and query), and what each must leave in the log instead. */
const CANARY_REQUESTS = secret => [
  { url: `/dev-api/serverTime?token=${secret}&id=5`, logged: '/dev-api/serverTime?token=***&id=5' },
  { url: `/dev-api/api/no-such-call?access_token=${secret}`, logged: '/dev-api/api/no-such-call?access_token=***' },
  { url: `/pagesA/show/index?sort=popular&${secret}`, logged: '/pagesA/show/index?sort=popular&[key]' },
  { url: `/media/u/${'0'.repeat(64)}.png?w=120&sig=${secret}`, logged: `/media/u/${'0'.repeat(64)}.png?w=120&sig=***` },
  { url: `/dev-api/%E0%A4%A?token=${secret}`, logged: '/dev-api/%E0%A4%A?token=***' }
]

/** Each finding: { kind, match, line } (the line cut to 300 characters). `secret`: the run's canary, found anywhere. */
function scanLog (text, { secret } = {}) {
  const found = []
  for (const line of text.split('\n')) {
    if (secret && line.includes(secret)) found.push({ kind: 'secret in a query value', match: secret, line: line.slice(0, 300) })
    if (!line.startsWith('{')) continue
    for (const [kind, re] of PATTERNS) {
      for (const m of line.matchAll(re)) found.push({ kind, match: m[0], line: line.slice(0, 300) })
    }
  }
  // each canary request was logged, redacted, when requests are logged at all (a log that dropped them
  // would hide a leak, not prove there is none)
  if (secret && text.includes('"req":{')) {
    for (const r of CANARY_REQUESTS(secret)) {
      if (!text.includes(`"url":"${r.logged}"`)) found.push({ kind: 'canary request not logged as redacted', match: r.logged, line: '' })
    }
  }
  return found
}

module.exports = { scanLog, CANARY_REQUESTS }
