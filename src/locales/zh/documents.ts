/**
 * The texts of the web view page: the shop's agreements and the page's own words. Apart from the rest
 * because the web view is in the mini-program's main package, where the rest is not (src/locales/documents*).
 */
const documents = {
  agreements: {
    serviceTitle: '服务协议',
    serviceBody: '欢迎使用拾盒。\n1. 盲盒的款式、稀有度、单盒概率与价值区间在购买前公示，购买即表示你已查看。\n2. 每一箱在开售前公布承诺值（sha256），售罄或下架后公开排列与盐值，任何人都可验算。\n3. 单个盲盒价格不超过 200 元；未满 8 周岁不可购买，8 至 17 周岁需监护人同意并受每日限额约束。\n4. 奖品不可兑换为现金；回收所得为抵扣金，不可提现。\n5. 充值余额中未消费的部分可申请提现，经审核后原路退回。',
    privacyTitle: '隐私政策',
    fairnessTitle: '开盒如何可验证',
    fairnessBody: '每一箱在开卖前就确定了每个盒子里是哪一款，并公布这份排列的 SHA-256 承诺值。\n1. 开卖前：系列页列出每一款的稀有度、单盒概率和价值区间，付款前还会再确认一次。\n2. 开卖中：承诺值公开，排列和盐值保密，谁也无法在卖出后调换盒子。\n3. 售罄或下架后：公布排列和盐值，任何人都能在奖品详情页的「验证」里用手机重新计算哈希，与开卖前的承诺比对。\n4. 合成：每次抽取用 HMAC-SHA256(服务端种子, 客户端种子:序号) 计算，种子哈希事先公布，换种子时揭晓旧种子，结果页可在手机上复核。\n5. 动态里的稀有和隐藏款都来自真实的开盒记录，昵称已隐去。',
    privacyBody: '我们只收集提供服务所必需的信息：账号（用户名、手机号或邮箱）、订单与奖品记录、收货地址。\n1. 密码以 argon2id 加盐哈希保存，验证码与登录凭证只保存哈希值。\n2. 动态中展示的中奖记录会隐去你的昵称。\n3. 你可以在账号安全中查看并结束登录设备，也可以申请导出自己的数据。\n4. 我们不会向第三方出售你的个人信息。'
  },
  webView: {
    missingUrl: '请提供链接地址',
    notAllowed: '这个网页不属于本店，不能在这里打开。如果是别人发给你的链接，请不要在里面填写账号、密码或付款。',
    openExternal: '在浏览器中打开'
  }
}

export default documents
