// A local SMTP server on 127.0.0.1 that keeps every mail it receives, so a test can read the login
// code the shop's server sent through its real SMTP adapter (nodemailer).
const { SMTPServer } = require('smtp-server')

/** The text of a single-part mail as nodemailer writes it: base64, quoted-printable or plain. */
function bodyText (raw) {
  const split = raw.search(/\r?\n\r?\n/)
  const head = raw.slice(0, split)
  const body = raw.slice(split).trim()
  const encoding = (/^content-transfer-encoding:\s*(\S+)/im.exec(head) || [])[1] || ''
  if (/base64/i.test(encoding)) return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8')
  if (/quoted-printable/i.test(encoding)) {
    return Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8')
  }
  return body
}

async function startSmtp () {
  const mails = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData (stream, session, callback) {
      const chunks = []
      stream.on('data', c => chunks.push(c))
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map(r => r.address.toLowerCase()), raw: Buffer.concat(chunks).toString('utf8') })
        callback()
      })
    }
  })
  await new Promise(resolve => server.listen(0, '127.0.0.1', resolve))
  const port = server.server.address().port

  /** The newest 6-digit code mailed to `address`, waiting up to `timeout` ms for it to arrive. */
  async function codeFor (address, { after = 0, timeout = 10000 } = {}) {
    const until = Date.now() + timeout
    for (;;) {
      const mail = mails.slice(after).reverse().find(m => m.to.includes(address.toLowerCase()))
      if (mail) {
        const m = /\b(\d{6})\b/.exec(bodyText(mail.raw))
        if (m) return m[1]
      }
      if (Date.now() > until) throw new Error(`no code mailed to ${address}`)
      await new Promise(r => setTimeout(r, 100))
    }
  }

  return { url: `smtp://127.0.0.1:${port}`, mails, codeFor, bodyText, close: () => new Promise(r => server.close(r)) }
}

module.exports = { startSmtp, bodyText }
