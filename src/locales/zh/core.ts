/**
 * The first part of the base dictionary: every text the login page, home and the app's start need
 * (the H5 build sends these with the app; ./rest.ts comes in a chunk of its own). The groups are
 * listed in test/unit/dictionary-split.test.ts, which checks that nothing before a page's own code
 * uses another group.
 */
const core = {
  app: {
    name: '拾盒',
    slogan: '每一次开盒，都可验证',
    language: '语言',
    languageName: '中文',
    switchTo: 'English'
  },
  titles: {
    login: '登录页',
    web_view: '网页',
    editor: '盲盒编辑器',
    prize_detail: '奖品详情',
    profile: '个人中心',
    purchase: '购买盲盒',
    props: '道具',
    home: '首页',
    blind_box_detail: '盲盒详情',
    my_blind_box: '我的盲盒',
    security: '账号安全',
    prize_show: '奖品展示',
    open_chest_animation: '开箱动画',
    recharge: '充值提现',
    combine_result: '合成结果',
    combine: '合成界面'
  },
  nav: {
    back: '返回',
    home: '首页',
    emptyLink: '请提供链接地址',
    invalidLink: '无效的链接',
    invalidJumpType: '无效的跳转类型',
    refreshFailed: '页面刷新失败',
    pageNotFound: '页面不存在'
  },
  feedback: {
    done: '完成',
    confirm: '确定',
    cancel: '取消',
    loading: '加载中…',
    noMore: '没有更多数据了',
    empty: '这里还什么都没有',
    retry: '重试'
  },
  request: {
    networkError: '网络异常，请稍后再试!',
    timeout: '请求超时，请稍后再试',
    canceled: '请求已取消',
    sessionExpired: '登录已过期，请重新登录'
  },
  login: {
    requiredTitle: '需要登录',
    requiredToBuy: '购买前请先登录。登录后会回到这个系列。',
    requiredToBuyPicked: '购买前请先登录。登录后会回到这里，已选的 {n} 个盒子会为你保留。',
    requiredToSwitch: '换箱前请先登录。登录后会回到这个系列。',
    requiredHere: '这一页需要登录后使用。登录后会回到这里。',
    goLogin: '去登录',
    notNow: '暂不',
    welcome: '欢迎来到拾盒',
    subtitle: '登录后开盒、收藏、合成',
    registerSubtitle: '注册后开盒、收藏、合成',
    tabPassword: '密码登录',
    tabSms: '短信登录',
    tabEmail: '邮箱登录',
    register: '注册',
    registerTitle: '注册新账号',
    registerNavTitle: '注册',
    haveAccount: '已有账号？去登录',
    noAccount: '还没有账号？去注册',
    account: '账号',
    accountPlaceholder: '用户名 / 手机号 / 邮箱',
    username: '用户名',
    usernamePlaceholder: '1-100 个字符',
    password: '密码',
    passwordPlaceholder: '3-18 个字符',
    phone: '手机号',
    phonePlaceholder: '11 位手机号',
    email: '邮箱',
    emailPlaceholder: 'name@example.com',
    code: '验证码',
    codePlaceholder: '4-6 位验证码',
    sendCode: '获取验证码',
    resendIn: '{n} 秒后重发',
    submit: '登录',
    submitRegister: '注册并登录',
    wechat: '微信一键登录',
    agreePrefix: '我已阅读并同意',
    serviceAgreement: '《服务协议》',
    privacyPolicy: '《隐私政策》',
    and: '和',
    needAccount: '请输入用户名、手机号或邮箱',
    needPassword: '请输入密码',
    usernameLength: '用户名长度应为 1-100 个字符',
    passwordLength: '密码长度应为 3-18 个字符',
    codeLength: '验证码长度应为 4-6 位',
    phoneInvalid: '请输入正确的手机号',
    emailInvalid: '请输入正确的邮箱地址',
    agreeRequired: '请先阅读并同意服务协议和隐私政策',
    loginFailed: '登录失败',
    registerFailed: '注册失败',
    codeSendFailed: '验证码发送失败',
    codeSent: '验证码已发送',
    authDenied: '您已拒绝授权',
    enterCorrectInfo: '请输入正确的信息',
    success: '登录成功'
  },
  rarity: {
    regular: '普通款',
    rare: '稀有款',
    hidden: '隐藏款'
  },
  home: {
    hello: '你好，{name}',
    guest: '你好，欢迎逛逛',
    bannerTitle: '开盒前看清概率',
    bannerMore: '了解如何验证',
    bannerText: '每一箱都先公布承诺值，售罄后公开排列，任何人都能验算。',
    seriesOnSale: '在售系列',
    liveFeed: '实时欧气榜',
    feedEmpty: '暂时还没有稀有款开出',
    pullToRefresh: '下拉刷新',
    perCase: '每箱 {n} 盒',
    feedLine: '{name} 抽中了 {design}',
    loadFailed: '加载失败，下拉重试',
    toCombine: '合成',
    toBoxes: '我的盲盒',
    toWallet: '充值提现',
    toProfile: '个人中心'
  },
  profile: {
    guest: '未登录',
    loginNow: '去登录',
    myBoxes: '我的盲盒',
    props: '道具',
    wallet: '充值提现',
    security: '账号安全',
    editor: '盲盒编辑器',
    language: '切换语言',
    logout: '退出登录',
    logoutConfirm: '确定退出登录吗？'
  },
  wechatLogin: {
    redirecting: '正在打开微信授权…',
    stateMismatch: '登录失败：微信授权已过期，或不是从这个页面发起的。请重新点“微信登录”。',
    silent: '正在用微信自动登录…'
  }
}

export default core
