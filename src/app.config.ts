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
        'event/index',
        'home/index',
        'my_blind_box/index',
        'open_chest_animation/index',
        'prize_detail/index',
        'prize_show/index',
        'profile/index',
        'props/index',
        'purchase/index',
        'recharge/index',
        'security/index',
        'show/index',
        'show_post/index'
      ]
    }
  ],
  // spec 9: the platform's timeouts of request, socket, upload and download, 60000 ms (the mini-program
  // reads these; H5 has no such setting, and each call passes its own: src/services/request.ts,
  // upload.ts, download.ts; PLATFORM_TIMEOUT_MS in src/constants.ts, compared in test/unit/timeouts.test.ts)
  networkTimeout: { request: 60000, connectSocket: 60000, uploadFile: 60000, downloadFile: 60000 },
  // WeChat only (H5 has no such fields). getLocation, the one private location API the app calls
  // (src/utils/location.ts), must be declared or it fails "getLocation:fail the api need to be declared in
  // the requiredPrivateInfos field in app.json/ext.json":
  // https://developers.weixin.qq.com/miniprogram/dev/reference/configuration/app.html#requiredPrivateInfos
  // scope.userLocation's desc is what WeChat's location popup says the position is for ("你的位置信息将用于
  // ...", at most 30 characters):
  // https://developers.weixin.qq.com/miniprogram/dev/reference/configuration/app.html#permission
  // https://developers.weixin.qq.com/miniprogram/dev/framework/open-ability/authorize.html
  // No __usePrivacyCheck__: since 2023-10-17 WeChat checks privacy consent whether or not it is set
  // (https://developers.weixin.qq.com/miniprogram/dev/framework/user-privacy/PrivacyAuthorize.html); the
  // app answers wx.onNeedPrivacyAuthorization itself (src/utils/privacy.ts, components/PrivacyPrompt).
  ...(process.env.TARO_ENV === 'weapp'
    ? {
        // chooseAddress: WeChat's address import of the address form (src/utils/wechatAddress.ts), declared as
        // https://developers.weixin.qq.com/miniprogram/dev/api/open-api/address/wx.chooseAddress.html asks
        requiredPrivateInfos: ['getLocation', 'chooseAddress'],
        permission: { 'scope.userLocation': { desc: '填写收货地址时定位你所在的地区和附近地点' } },
        // only the components a page renders are loaded, not every one the package holds (miniprogram-ci's
        // code-quality check asks for it: scripts/check-weapp-wechat.js):
        // https://developers.weixin.qq.com/miniprogram/dev/framework/ability/lazyload.html
        lazyCodeLoading: 'requiredComponents'
      }
    : {}),
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
