/**
 * The first start's H5 build, quiet (issue 48): Taro's webpack prints thousands of progress lines (ANSI
 * cursor moves when nobody watches a terminal), which buried the start banner. Its output is kept aside
 * and only its last lines are shown if it fails. Meanwhile: on a terminal, one line that updates in place
 * ("building the app… 42 s"); elsewhere (a log, CI), a plain line every `everyMs`.
 */
const { spawn } = require('node:child_process')

const TAIL_LINES = 60

/**
 * Runs `command args` with its output captured; resolves with its exit status.
 * `out` is the stream to report on (process.stdout); `isTTY` whether it is a terminal.
 */
function quietBuild (command, args, { cwd, env, out = process.stdout, isTTY = !!process.stdout.isTTY, everyMs = 15000, label = 'Building the app (first start only, about a minute)' } = {}) {
  return new Promise(resolve => {
    const started = Date.now()
    const seconds = () => Math.round((Date.now() - started) / 1000)
    // the last lines of each stream, without colours and cursor moves
    const tails = { out: '', err: '' }
    const keeper = which => chunk => {
      // eslint-disable-next-line no-control-regex
      tails[which] = (tails[which] + String(chunk)).replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').split(/\r?\n|\r/).slice(-TAIL_LINES).join('\n')
    }
    out.write(isTTY ? `${label}… 0 s` : `${label}…\n`)
    const timer = setInterval(() => {
      if (isTTY) out.write(`\r${label}… ${seconds()} s`)
      else out.write(`  still building (${seconds()} s)\n`)
    }, isTTY ? 1000 : everyMs)
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
    child.stdout.on('data', keeper('out'))
    child.stderr.on('data', keeper('err'))
    let finished = false
    const done = status => {
      if (finished) return
      finished = true
      clearInterval(timer)
      if (status === 0) out.write(`${isTTY ? '\r' : ''}${label}: done in ${seconds()} s\n`)
      else out.write(`${isTTY ? '\n' : ''}The build failed (exit ${status}); its last lines:\n${[tails.out, tails.err].filter(Boolean).join('\n')}\n`)
      resolve(status)
    }
    child.on('error', err => { keeper('err')(`${err.message}\n`); done(1) })
    child.on('close', code => done(code ?? 1))
  })
}

module.exports = { quietBuild }
