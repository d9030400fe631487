/**
 * The first start's build is quiet (issue 48; scripts/quietBuild.js): thousands of ANSI progress lines
 * become a few plain lines when nobody watches a terminal, one line updated in place when someone does;
 * the build's own output is shown only when it fails (its last lines, without colour codes).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { quietBuild } = require('../../scripts/quietBuild') as { quietBuild: (command: string, args: string[], o: Record<string, unknown>) => Promise<number> }

/** A noisy "build": 3000 progress lines full of cursor moves, then the given exit status. */
const noisy = (status: number) => ['-e', `for (let i = 0; i < 3000; i++) process.stdout.write('\\x1b[2K\\x1b[1A\\u25cf Webpack ' + i + '%\\n'); console.error('last words'); process.exitCode = ${status}`]

function collect () {
  const chunks: string[] = []
  return { out: { write: (s: string) => { chunks.push(s); return true } }, text: () => chunks.join('') }
}

test('not a terminal: a few plain lines, no ANSI codes, none of the build\'s output', async () => {
  const c = collect()
  expect(await quietBuild(process.execPath, noisy(0), { out: c.out, isTTY: false, everyMs: 50, label: 'Building the app' })).toBe(0)
  const text = c.text()
  // eslint-disable-next-line no-control-regex
  expect(text).not.toMatch(/\x1b/)
  expect(text).not.toContain('Webpack')
  const lines = text.trim().split('\n')
  expect(lines[0]).toBe('Building the app…')
  expect(lines[lines.length - 1]).toMatch(/^Building the app: done in \d+ s$/)
  expect(lines.length).toBeLessThan(40)
})

test('a terminal: one line updated in place', async () => {
  const c = collect()
  expect(await quietBuild(process.execPath, noisy(0), { out: c.out, isTTY: true, label: 'Building the app' })).toBe(0)
  expect(c.text().split('\n').filter(Boolean)).toHaveLength(1)
  expect(c.text()).not.toContain('Webpack')
})

test('a failure shows the build\'s last lines, without colour codes, and its status', async () => {
  const c = collect()
  expect(await quietBuild(process.execPath, noisy(3), { out: c.out, isTTY: false, everyMs: 60000 })).toBe(3)
  expect(c.text()).toContain('The build failed (exit 3)')
  expect(c.text()).toContain('last words')
  expect(c.text()).toContain('Webpack 2999%')
  // eslint-disable-next-line no-control-regex
  expect(c.text()).not.toMatch(/\x1b/)
})
