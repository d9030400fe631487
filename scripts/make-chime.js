#!/usr/bin/env node
/**
 * Writes the chest-opening sound (a short rising chime) as an 8-bit mono WAV. The sound is made
 * here from sine partials with an exponential decay, so the project owns it outright.
 * Usage: node scripts/make-chime.js [out] (default src/pagesA/open_chest_animation/open.wav)
 */
const fs = require('node:fs')
const path = require('node:path')

const RATE = 22050
const SECONDS = 0.9
const NOTES = [[0.00, 659.25], [0.09, 783.99], [0.18, 1046.5], [0.27, 1318.5]] // E5 G5 C6 E6

const n = Math.floor(RATE * SECONDS)
const samples = new Float64Array(n)
for (const [start, freq] of NOTES) {
  const s0 = Math.floor(start * RATE)
  for (let i = s0; i < n; i++) {
    const t = (i - s0) / RATE
    const env = Math.min(1, t / 0.004) * Math.exp(-t * 5.5)
    samples[i] += env * (Math.sin(2 * Math.PI * freq * t) + 0.35 * Math.sin(4 * Math.PI * freq * t))
  }
}
const peak = samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0)
const data = Buffer.alloc(n)
for (let i = 0; i < n; i++) data[i] = Math.round(128 + 110 * (samples[i] / peak))

const header = Buffer.alloc(44)
header.write('RIFF', 0); header.writeUInt32LE(36 + n, 4); header.write('WAVE', 8)
header.write('fmt ', 12); header.writeUInt32LE(16, 16); header.writeUInt16LE(1, 20); header.writeUInt16LE(1, 22)
header.writeUInt32LE(RATE, 24); header.writeUInt32LE(RATE, 28); header.writeUInt16LE(1, 32); header.writeUInt16LE(8, 34)
header.write('data', 36); header.writeUInt32LE(n, 40)

const out = path.resolve(process.argv[2] || path.join(__dirname, '..', 'src', 'pagesA', 'open_chest_animation', 'open.wav'))
fs.writeFileSync(out, Buffer.concat([header, data]))
console.log(`wrote ${out} (${44 + n} bytes)`)
