// babel-preset-taro: used by the Taro build and by Jest (babel-jest). No core-js polyfills: the
// browserslist targets (package.json) are phones from 2018 on, which need none of them.
// React on both builds (config/index.ts); H5 development builds hot reload with React Fast Refresh.
module.exports = {
  presets: [
    ['taro', { framework: 'react', ts: true, compiler: 'webpack5', useBuiltIns: false }]
  ]
}
