export default defineAppConfig({
  // Taro's H5 router compares this with a path that starts with '/': without the slash it takes the
  // entry page for an ordinary first page and shows a pointless "home" button on it.
  entryPagePath: process.env.TARO_ENV === 'h5' ? '/pages/login/index' : 'pages/login/index',
  pages: ['pages/login/index', 'pages/web_view/index'],
  subPackages: [
    {
      root: 'pagesA',
      pages: [
        'blind_box_detail/index',
        'combine/index',
        'combine_result/index',
        'editor/index',
        'home/index',
        'my_blind_box/index',
        'open_chest_animation/index',
        'prize_detail/index',
        'prize_show/index',
        'profile/index',
        'props/index',
        'purchase/index',
        'recharge/index',
        'security/index'
      ]
    }
  ],
  // spec 9: the platform's timeouts of request, socket, upload and download, 60000 ms (the mini-program
  // reads these; H5 has no such setting, and each call passes its own: src/services/request.ts,
  // upload.ts, download.ts; PLATFORM_TIMEOUT_MS in src/constants.ts, compared in test/unit/timeouts.test.ts)
  networkTimeout: { request: 60000, connectSocket: 60000, uploadFile: 60000, downloadFile: 60000 },
  window: {
    backgroundTextStyle: 'dark',
    backgroundColor: '#F8F8F8',
    navigationBarBackgroundColor: '#ffffff',
    navigationBarTitleText: '',
    navigationBarTextStyle: 'black',
    // The default bar on both builds (spec 2); on H5 Taro draws it, with a home button on a first page.
    navigationStyle: 'default'
  }
})
