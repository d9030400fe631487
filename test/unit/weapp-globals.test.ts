/**
 * The weapp build's check for browser-only globals (scripts/check-weapp-globals.js) on small
 * sources written here: what it must refuse, what a guard makes safe, and @h5only propagation.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { findUnguarded, programFor } = require('../../scripts/check-weapp-globals.js') as {
  findUnguarded: (program: unknown, srcDir: string) => Array<{ file: string; line: number; what: string }>
  programFor: (tsconfig: string) => unknown
}

function check (files: Record<string, string>) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'globals-'))
  const src = path.join(dir, 'src')
  fs.mkdirSync(src)
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'es2020', module: 'esnext', lib: ['es2020', 'dom'], strict: true, noEmit: true, types: [] }, include: ['src'] }))
  fs.writeFileSync(path.join(src, 'env.d.ts'), 'declare const process: { env: Record<string, string | undefined> }\n')
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(src, name), text)
  try {
    return findUnguarded(programFor(path.join(dir, 'tsconfig.json')), src).map(f => `${path.basename(f.file)}:${f.line} ${f.what}`)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

test('unguarded browser globals are refused, each with its line', () => {
  expect(check({
    'a.ts': [
      'export const text = (b: Uint8Array) => new TextDecoder().decode(b)',
      'export const keep = (v: string) => localStorage.setItem("k", v)',
      'export const url = (b: Blob) => URL.createObjectURL(b)',
      'export const el = () => document.createElement("a")',
      'export const go = () => { window.location.href = "/" }'
    ].join('\n')
  })).toEqual(['a.ts:1 TextDecoder', 'a.ts:2 localStorage', 'a.ts:3 URL.createObjectURL', 'a.ts:4 document', 'a.ts:5 window'])
})

test('platform guards make them safe: if, ?:, &&, an early return, typeof', () => {
  expect(check({
    'b.ts': [
      'export function a () { if (process.env.TARO_ENV === "h5") document.title = "x" }',
      'export function b () { if (process.env.TARO_ENV !== "h5") return; window.scrollTo(0, 0) }',
      'export const c = () => process.env.TARO_ENV === "h5" ? localStorage.getItem("k") : null',
      'export const d = () => typeof window !== "undefined" && window.innerWidth',
      'export function e () { if (process.env.TARO_ENV !== "h5") { return 1 } else { return document.body.clientWidth } }',
      'export const f = () => typeof document'
    ].join('\n')
  })).toEqual([])
})

test('the wrong branch is still refused', () => {
  expect(check({
    'c.ts': [
      'export function a () { if (process.env.TARO_ENV === "h5") { return 1 } else { return document.body.clientWidth } }',
      'export const b = () => process.env.TARO_ENV === "weapp" ? window.innerWidth : 0',
      'export function c () { if (process.env.TARO_ENV === "h5") return; window.scrollTo(0, 0) }'
    ].join('\n')
  })).toEqual(['c.ts:1 document', 'c.ts:2 window', 'c.ts:3 window'])
})

test('@h5only functions may use the browser, and their callers must be guarded in turn, across files', () => {
  expect(check({
    'lib.ts': [
      '/** Opens a file picker. @h5only */',
      'export function pick () { return document.createElement("input") }',
      'export const api = {',
      '  /** @h5only */',
      '  go (url: string) { window.location.href = url }',
      '}'
    ].join('\n'),
    'use.ts': [
      'import { pick, api } from "./lib"',
      'export const bad = () => pick()',
      'export const good = () => (process.env.TARO_ENV === "h5" ? pick() : null)',
      'export function alsoBad () { api.go("/") }',
      'export function alsoGood () { if (process.env.TARO_ENV === "h5") api.go("/") }'
    ].join('\n')
  })).toEqual(['use.ts:2 pick (@h5only)', 'use.ts:4 api.go (@h5only)'])
})

// the shop's own sources: the weapp build itself refuses them when one is unguarded (config/index.ts
// runs assertWeappSafe before every weapp build, and npm test builds the mini-program)

test('an .h5.ts(x) file is H5 only: Taro never builds it into the mini-program, so it is not checked; the same text elsewhere is', () => {
  const text = 'export const el = () => document.createElement("script")\n'
  expect(check({ 'loader.h5.ts': text, 'view.h5.tsx': text, 'loader.ts': text })).toEqual(['loader.ts:1 document'])
})
