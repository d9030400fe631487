// babel-preset-taro: used by the Taro build and by Jest (babel-jest). No core-js polyfills: the
// browserslist targets (package.json) are phones from 2018 on, which need none of them.
// The H5 build runs on Preact (config/index.ts): JSX goes to react/jsx-runtime either way (aliased to
// preact/jsx-runtime there); no hot reloading in H5 development builds, which would need Preact's
// refresh plugins (not installed).
const h5 = process.env.TARO_ENV === 'h5'
module.exports = {
  presets: [
    ['taro', { framework: h5 ? 'preact' : 'react', ts: true, compiler: 'webpack5', useBuiltIns: false, ...(h5 ? { hot: false } : {}) }]
  ]
}
