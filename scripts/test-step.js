#!/usr/bin/env node
/**
 * Runs one step of `npm test` (scripts/test-all.js) and tells how much processor time it took: the
 * command's exit status and its CPU seconds (user + system, every process it waited for included) as
 * one JSON line on file descriptor 3. Linux reads those from /proc; elsewhere the CPU time is null.
 * Usage: node scripts/test-step.js <command> [args...]
 */
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')

const [cmd, ...args] = process.argv.slice(2)
// TEST_STEP_NICE=n: the step and everything it starts run at that niceness (the scheduler's batch steps)
const nice = Number(process.env.TEST_STEP_NICE)
if (Number.isInteger(nice) && nice > 0) {
  try { os.setPriority(0, nice) } catch {}
  lowerAutogroup(nice)
}
const child = spawn(cmd, args, { stdio: 'inherit' })
// the scheduler stops a step with SIGTERM to its process group; pass it on if it came to us alone
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig))

child.on('error', err => report(127, String(err)))
child.on('exit', (code, signal) => report(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)))

function report (status, error) {
  let cpu = null
  try {
    // /proc/self/stat: fields 16 and 17 are cutime and cstime, in clock ticks (100 a second on Linux);
    // the name (field 2) may hold spaces, so count from its closing parenthesis
    const stat = fs.readFileSync('/proc/self/stat', 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    cpu = (Number(fields[13]) + Number(fields[14])) / 100
  } catch {}
  try {
    fs.writeSync(3, JSON.stringify({ status, cpu, error }) + '\n')
  } catch {}
  process.exit(status)
}

/**
 * Linux with autogroups (sched_autogroup_enabled, on by default in most distributions' kernels and on
 * the CI machines): the scheduler first shares the processors between sessions, equally, and only then
 * between the processes of a session by their niceness. test-all.js starts every step in a session of
 * its own (to stop it as a group), so a process's niceness alone weighs nothing against another step:
 * a typecheck at niceness 10 took as large a share as the server tests' two workers together. The
 * session's own niceness (/proc/self/autogroup, see sched(7), "The autogroup feature") weighs steps
 * against each other; raising it needs no privilege. Elsewhere the file is missing and nothing changes.
 */
function lowerAutogroup (n) {
  try {
    fs.writeFileSync('/proc/self/autogroup', String(n))
  } catch {}
}
