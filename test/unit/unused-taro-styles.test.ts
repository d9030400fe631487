/**
 * The H5 build drops the styles of Taro components the app does not use, with WeUI's icon font
 * (scripts/webpack/unused-taro-styles-loader.js). This keeps that safe: no source file imports one of
 * those components, and the loader keeps every other component's styles.
 */
import fs from 'node:fs'
import path from 'node:path'

// eslint-disable-next-line @typescript-eslint/no-require-imports
const loader = require('../../scripts/webpack/unused-taro-styles-loader.js') as { dropUnused: (css: string) => string, UNUSED_COMPONENTS: string[] }

const SRC = path.resolve(__dirname, '..', '..', 'src')
const sources = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap(e =>
  e.isDirectory() ? sources(path.join(dir, e.name)) : /\.(tsx?|jsx?)$/.test(e.name) ? [path.join(dir, e.name)] : [])

test('no source file uses a Taro component whose styles the H5 build drops', () => {
  const used: string[] = []
  for (const file of sources(SRC)) {
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/import\s*\{([^}]*)\}\s*from\s*'@tarojs\/components'/g)) {
      for (const name of m[1].split(',').map(s => s.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0])) {
        if (loader.UNUSED_COMPONENTS.includes(name)) used.push(`${path.relative(SRC, file)}: ${name}`)
      }
    }
  }
  expect(used).toEqual([])
})

test('the loader drops the WeUI icon font and the icon, checkbox and radio rules, and keeps the rest', () => {
  const css = [
    '.taro-app-wrap{margin:0}',
    '@font-face{font-family:weui;src:url(data:application/octet-stream;base64,AAEA)format("truetype")}',
    '@font-face{font-family:"other";src:url(x.woff)}',
    '[class^=weui-icon-],[class*=\\ weui-icon-]{font:14px/1 weui}',
    '.weui-icon-success:before{content:"x"}',
    '.weui-cells_radio .weui-check+.weui-icon-checked{min-width:16px}',
    '.taro-button-core,.weui-icon-info{color:red}',
    '.weui-input{width:100%}',
    '@keyframes weuiLoading{0%{transform:rotate(0)}to{transform:rotate(1turn)}}'
  ].join('')
  const out = loader.dropUnused(css)
  expect(out).not.toMatch(/weui-icon|weui-check|weui-cells|base64|font-family:weui/)
  expect(out).toContain('.taro-app-wrap{margin:0}')
  expect(out).toContain('font-family:"other"')
  expect(out).toContain('.taro-button-core{color:red}')
  expect(out).toContain('.weui-input{width:100%}')
  expect(out).toContain('@keyframes weuiLoading')
})

test('the picker\'s rules leave the entry\'s sheet and make a sheet of their own, keyframes and all', () => {
  const split = loader as unknown as { splitComponents: (css: string, only: string | null) => string, call: (ctx: unknown, css: string) => string }
  const css = [
    '.taro-app-wrap{margin:0}',
    '.taro-picker__overlay{position:fixed}',
    '.taro-picker-theme-dark .taro-picker__mask{background:#000}',
    '.taro-button-core,.taro-picker__action{color:red}',
    '.taro-pickerish{color:blue}',
    '@media (prefers-color-scheme:dark){.taro-picker{color:#fff}}',
    '@keyframes taro-picker__slide-up{0%{transform:translateY(100%)}to{transform:translateY(0)}}',
    '@keyframes weuiLoading{0%{transform:rotate(0)}to{transform:rotate(1turn)}}'
  ].join('')
  const rest = split.splitComponents(css, null)
  expect(rest).not.toMatch(/taro-picker[_-]|taro-picker\{|taro-picker__slide-up|@media/)
  expect(rest).toContain('.taro-app-wrap{margin:0}')
  expect(rest).toContain('.taro-button-core{color:red}')
  expect(rest).toContain('.taro-pickerish{color:blue}')
  expect(rest).toContain('@keyframes weuiLoading')
  const picker = split.splitComponents(css, 'picker')
  expect(picker).toContain('.taro-picker__overlay{position:fixed}')
  expect(picker).toContain('.taro-picker-theme-dark .taro-picker__mask{background:#000}')
  expect(picker).toContain('.taro-picker__action{color:red}')
  expect(picker).toContain('@media (prefers-color-scheme:dark){.taro-picker{color:#fff}}')
  expect(picker).toContain('@keyframes taro-picker__slide-up')
  expect(picker).not.toMatch(/taro-app-wrap|taro-button|pickerish|weuiLoading/)
  // as a loader: the query picks the part; a component without a part of its own is an error
  const run = (query: string) => (loader as unknown as (this: unknown, css: string) => string).call({ resourceQuery: query }, css)
  expect(run('?component=picker')).toBe(picker)
  expect(run('')).toBe(rest)
  expect(() => run('?component=button')).toThrow(/button/)
})

test('Taro\'s picker has an empty style module for the component-styles loader to fill', () => {
  const dir = path.dirname(require.resolve('@tarojs/components-react/package.json'))
  const component = fs.readFileSync(path.join(dir, 'dist', 'components', 'picker', 'index.js'), 'utf8')
  expect(component).toContain("import './style/index.scss.js'")
  const css = fs.readFileSync(path.join(dir, 'dist', 'index.css'), 'utf8')
  expect(css).toMatch(/\.taro-picker__overlay/)
})
