// Shared pieces of the local provider fakes (plain JavaScript: the Jest suites and the Chromium e2e
// suite both start them). Each fake listens on 127.0.0.1 on a free port.
const http = require('node:http')
const crypto = require('node:crypto')

const md5 = text => crypto.createHash('md5').update(text, 'utf8').digest('hex')

/** Starts a server for `handler(req, res, body)`; resolves {url, close}. */
async function listen (handler) {
  const server = http.createServer((req, res) => {
    const chunks = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      Promise.resolve(handler(req, res, Buffer.concat(chunks).toString('utf8'))).catch(err => {
        res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(String(err && err.stack))
      })
    })
  })
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address()
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise(resolve => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  }
}

function sendJson (res, body, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
  res.end(JSON.stringify(body))
}

/**
 * What a fake does with its next request when a test asks for trouble: `{json}` answers that body,
 * 'http500' an HTTP 500, 'garbage' a body that is not JSON, 'hang' nothing until the client gives up.
 * Returns true when it answered.
 */
function answerTrouble (fake, res) {
  const next = fake.next
  if (next === undefined || next === null) return false
  fake.next = null
  if (next === 'http500') {
    res.writeHead(500, { 'content-type': 'text/html' })
    res.end('<html><body>502 Bad Gateway</body></html>')
  } else if (next === 'garbage') {
    res.writeHead(200, { 'content-type': 'text/html' })
    res.end('<html>not json</html>')
  } else if (next === 'hang') {
    // never answers; the server closes the socket on close()
  } else {
    sendJson(res, next.json)
  }
  return true
}

module.exports = { listen, sendJson, answerTrouble, md5 }
