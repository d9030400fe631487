/**
 * Personal data in the server's log (issue 26 item 5): the JSON lines of a whole e2e run are searched
 * for what must never be there: mainland mobile numbers, e-mail addresses, session tokens (43 characters
 * of base64url: 256 random bits), WeChat openids (the local WeChat's, and the 28-character shape of a
 * real one) and one-time codes given as a field. The startup banner (not JSON: the demo logins,
 * development only) is not the log.
 */
const PATTERNS = [
  ['phone', /(?<![0-9A-Za-z])1[3-9][0-9]{9}(?![0-9A-Za-z])/g],
  ['e-mail', /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g],
  ['token', /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g],
  ['openid', /(?<![A-Za-z0-9_-])o(?:_fake_[a-z_0-9]+|_event_[a-z_0-9]+|[A-Za-z0-9_-]{27})(?![A-Za-z0-9_-])/g],
  ['code', /"(?:code|js_code|smsCode|verifyCode)"\s*:\s*"[0-9]{4,8}"/g]
]

/** Each finding: { kind, match, line } (the line cut to 300 characters). */
function scanLog (text) {
  const found = []
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue
    for (const [kind, re] of PATTERNS) {
      for (const m of line.matchAll(re)) found.push({ kind, match: m[0], line: line.slice(0, 300) })
    }
  }
  return found
}

module.exports = { scanLog }
