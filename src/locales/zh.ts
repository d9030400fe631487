/**
 * The base dictionary. Its shape is the type every other locale must satisfy (see ./types.ts),
 * so a key missing from en.ts fails to compile. Placeholders are written {name}.
 */
const zh = {
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
    retry: '重试',
    comingSoon: '即将开放'
  },
  request: {
    networkError: '网络异常，请稍后再试!',
    timeout: '请求超时，请稍后再试',
    canceled: '请求已取消',
    sessionExpired: '登录已过期，请重新登录'
  },
  login: {
    welcome: '欢迎来到拾盒',
    subtitle: '登录后开盒、收藏、合成',
    tabPassword: '密码登录',
    tabSms: '短信登录',
    tabEmail: '邮箱登录',
    register: '注册',
    registerTitle: '注册新账号',
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
    needAccount: '必须提供 user_name、phone 或 email 之一',
    needPassword: '必须提供 password',
    usernameLength: '用户名长度应为 1-100 个字符',
    passwordLength: '密码长度应为 3-18 个字符',
    codeLength: '验证码长度应为 4-6 位',
    phoneInvalid: '请输入正确的手机号',
    emailInvalid: '请输入正确的邮箱地址',
    agreeRequired: '请先阅读并同意服务协议和隐私政策',
    loginFailed: '登录失败',
    codeSendFailed: '验证码发送失败',
    codeSent: '验证码已发送',
    authDenied: '您已拒绝授权',
    enterCorrectInfo: '请输入正确的信息',
    success: '登录成功'
  },
  agreements: {
    serviceTitle: '服务协议',
    serviceBody: '欢迎使用拾盒。\n1. 盲盒的款式、稀有度、单盒概率与价值区间在购买前公示，购买即表示你已查看。\n2. 每一箱在开售前公布承诺值（sha256），售罄或下架后公开排列与盐值，任何人都可验算。\n3. 单个盲盒价格不超过 200 元；未满 8 周岁不可购买，8 至 17 周岁需监护人同意并受每日限额约束。\n4. 奖品不可兑换为现金；回收所得为抵扣金，不可提现。\n5. 充值余额中未消费的部分可申请提现，经审核后原路退回。',
    privacyTitle: '隐私政策',
    privacyBody: '我们只收集提供服务所必需的信息：账号（用户名、手机号或邮箱）、订单与奖品记录、收货地址。\n1. 密码以 argon2id 加盐哈希保存，验证码与登录凭证只保存哈希值。\n2. 动态中展示的中奖记录会隐去你的昵称。\n3. 你可以在账号安全中查看并结束登录设备，也可以申请导出自己的数据。\n4. 我们不会向第三方出售你的个人信息。'
  },
  webView: {
    missingUrl: '请提供链接地址',
    openExternal: '在浏览器中打开'
  },
  home: {
    hello: '你好，{name}',
    guest: '你好，欢迎逛逛',
    bannerTitle: '开盒前看清概率',
    bannerText: '每一箱都先公布承诺值，售罄后公开排列，任何人都能验算。',
    seriesOnSale: '在售系列',
    liveFeed: '实时欧气榜',
    feedEmpty: '暂时还没有稀有款开出',
    pullToRefresh: '下拉刷新'
  },
  detail: {
    designs: '款式',
    odds: '单盒概率',
    valueRange: '价值区间',
    rules: '规则',
    currentCase: '当前箱',
    switchCase: '换一箱',
    pickSlots: '选盒购买',
    wholeCase: '整箱购买',
    sold: '已售',
    noSeries: '未找到该系列'
  },
  purchase: {
    items: '购买内容',
    price: '价格',
    credit: '抵扣金',
    cash: '余额',
    pay: '确认支付',
    disclosure: '我已查看款式、概率与规则',
    nothing: '还没有选择盲盒'
  },
  recharge: {
    balance: '我的余额',
    cash: '现金余额',
    credit: '抵扣金',
    topUp: '充值',
    withdraw: '提现',
    custom: '自定义金额',
    ledger: '资金明细',
    yuan: '{n} 元'
  },
  chest: {
    tapToOpen: '点击开盒',
    skip: '跳过',
    next: '下一个',
    waiting: '正在准备你的盲盒'
  },
  prize: {
    results: '开盒结果',
    again: '再来一次',
    toCollection: '放入收藏',
    share: '分享',
    rarity: '稀有度',
    value: '参考价值',
    recycleValue: '回收价值',
    proof: '公平性证明',
    commit: '承诺值',
    verify: '本机验算',
    none: '还没有奖品'
  },
  collection: {
    all: '全部',
    warehouse: '仓库中',
    shipping: '运输中',
    received: '已签收',
    combined: '已合成',
    recycled: '已回收',
    progress: '集齐进度 {owned}/{total}',
    export: '导出 Excel',
    exported: '已保存 {name}',
    loginFirst: '登录后查看你的盲盒'
  },
  combine: {
    recipe: '合成配方',
    pick: '选择材料',
    start: '开始合成',
    pool: '产出池与概率',
    seed: '种子',
    result: '合成结果',
    back: '继续合成'
  },
  editor: {
    title: '系列名称',
    description: '系列描述',
    price: '单盒价格（元）',
    caseSize: '每箱盒数',
    designs: '款式',
    save: '保存草稿',
    priceLimit: '单盒价格最高 200 元'
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
  props: {
    shake: '摇一摇',
    shakeDesc: '每天免费 3 次：排除一个未售盒子里不是的款式',
    hint: '提示卡',
    hintDesc: '同一盒子再排除一个款式',
    xray: '透视卡',
    xrayDesc: '看见一个未售盒子里的款式，并为你保留 10 分钟',
    owned: '持有 {n}'
  },
  security: {
    password: '修改密码',
    phone: '绑定手机',
    email: '绑定邮箱',
    sessions: '登录设备',
    limits: '消费限额',
    guardian: '监护人同意'
  }
}

export default zh
