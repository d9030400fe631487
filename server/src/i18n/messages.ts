/**
 * The server's message catalogue (zh and en). Messages follow Accept-Language: zh when it starts
 * with "zh", else en. `{name}` placeholders are filled from the params.
 */
export type Locale = 'zh' | 'en'

const zh = {
  ok: '操作成功',
  'request.notFound': '接口不存在',
  'request.internal': '服务器内部错误',
  'request.invalidJson': '请求体不是合法的 JSON',
  'request.bodyTooLarge': '请求体过大',
  'request.unsupportedMediaType': '不支持的请求内容类型',
  'request.bad': '请求无效',
  'request.headersTooLarge': '请求头过大',
  'request.rateLimited': '操作过于频繁，请 {seconds} 秒后再试',

  'validation.required': '必须提供 {field}',
  'validation.unknownField': '不允许的字段 {field}',
  'validation.type': '{field} 应为{type}',
  'validation.minLength': '{field} 长度不能少于 {limit} 个字符',
  'validation.maxLength': '{field} 长度不能超过 {limit} 个字符',
  'validation.format': '{field} 格式不正确',
  'validation.minimum': '{field} 不能小于 {limit}',
  'validation.maximum': '{field} 不能大于 {limit}',
  'validation.enum': '{field} 取值无效',
  'validation.minProperties': '{field} 至少需要 {limit} 个字段',
  'validation.invalid': '{field} 无效',
  'validation.controlChars': '{field} 不能包含控制字符',
  'type.string': '字符串',
  'type.integer': '整数',
  'type.number': '数字',
  'type.boolean': '布尔值',
  'type.object': '对象',
  'type.array': '数组',
  'type.null': '空值',

  'auth.required': '未登录或登录已过期',
  'auth.operatorOnly': '只有运营人员可以这样做',
  'login.identifierRequired': '必须提供 user_name、phone 或 email 之一',
  'login.onlyOneIdentifier': '只能提供 user_name、phone 或 email 之一',
  'login.passwordRequired': '必须提供 password',
  'login.failed': '账号或密码错误',
  'code.invalid': '验证码错误或已过期',
  'code.required': '必须提供 code',
  'code.smsText': '【盲盒商店】您的验证码是 {code}，{minutes} 分钟内有效，请勿告诉他人。',
  'code.mailSubject': '盲盒商店验证码：{code}',
  'code.mailText': '您的验证码是 {code}，{minutes} 分钟内有效。如果不是您本人操作，请忽略本邮件。',
  'register.userNameTaken': '用户名已被使用',
  'register.userNameBlank': '用户名不能只有空白',
  'register.phoneTaken': '该手机号已注册',
  'register.emailTaken': '该邮箱已注册',
  'user.defaultNickname': '盲盒玩家',
  'wechat.defaultNickname': '微信用户',
  'wechat.loginFailed': '微信登录失败：{reason}',

  'provider.notConfigured': '{provider}未配置',
  'provider.unavailable': '{provider}暂时不可用，请稍后再试',
  'provider.sms': '短信服务',
  'provider.mail': '邮件服务',
  'provider.weapp': '微信小程序',
  'provider.wechat': '微信网页授权',

  'data.tableNotFound': '数据表 {table} 不存在',
  'data.methodNotAllowed': '数据表 {table} 不支持 {method}',
  'data.rowNotFound': '记录不存在',
  'data.tooManyRows': '最多只能保存 {max} 条{table}记录',
  'data.writeConflict': '记录正被同时修改，请重试',

  'provider.wechatpay': '微信支付',

  'series.notFound': '系列不存在',
  'series.notOnSale': '该系列已停售',
  'case.notFound': '箱子不存在',
  'case.notOnSale': '这一箱已售罄或已下架，请换一箱',
  'case.switchLimit': '今天的换箱次数已用完（每天 {max} 次）',
  'slot.sold': '{slot} 号盒已被买走',
  'slot.duplicate': '{field} 中的 {slot} 号盒重复',
  'slot.outOfRange': '{field} 中的 {slot} 号盒不存在（本箱共 {size} 盒）',
  'purchase.slotsOrWholeCase': '{field} 与 wholeCase 必须且只能提供一个',
  'wallet.insufficient': '余额不足，还差 {shortfall} 元',
  'idempotency.keyReused': '{field} 已用于另一个不同的请求',
  'idempotency.inProgress': '使用该 {field} 的请求正在处理，请稍后重试',
  'age.required': '首次购买前请先完成年龄验证（填写出生日期）',
  'age.tooYoung': '未满 {min} 周岁不能购买盲盒',
  'age.guardianRequired': '未成年人购买需要监护人同意',
  'age.dailyCap': '未成年人每日消费上限为 {cap} 元，今天还可消费 {left} 元',
  'age.birthDateFixed': '出生日期已登记，不能修改；如有错误请联系客服',
  'prize.notFound': '奖品不存在',
  'prize.duplicate': '{field} 中的奖品 {prizeId} 重复',
  'prize.notInWarehouse': '奖品 {prizeId} 当前{status}，不在仓库中',
  'prize.verifyFailed': '校验失败：这个二维码不属于本店发出的任何奖品',
  'prizeStatus.warehouse': '在仓库',
  'prizeStatus.shipping': '已申请发货',
  'prizeStatus.received': '已签收',
  'prizeStatus.combined': '已合成',
  'prizeStatus.recycled': '已回收',
  'address.notFound': '地址不存在',
  'address.blank': '{field} 不能为空',
  'address.tooMany': '最多只能保存 {max} 个地址',
  'shipment.notFound': '发货单不存在',
  'shipment.badStatus': '发货单当前状态（{status}）不能这样操作',
  'shipmentStatus.requested': '待发货',
  'shipmentStatus.shipping': '运输中',
  'shipmentStatus.received': '已签收',
  'order.idsRequired': 'productId 或 userId 不能为空',
  'order.userMismatch': 'userId 与当前登录用户不一致',
  'order.unknownOpId': '订单号 {field} 无效：请先获取订单号',
  'order.opIdUsed': '订单号 {field} 已被使用',
  'order.unknownProduct': '商品 {field} 不存在',
  'order.productMismatch': '{field} 与获取订单号时不一致',
  'order.notFound': '订单不存在',
  'order.notPayable': '订单当前状态（{status}）不能支付',
  'order.notCancelable': '订单当前状态（{status}）不能取消',
  'order.notSandbox': '该订单不是沙箱支付订单',
  'pay.channelUnavailable': '支付方式 {channel} 当前不可用',
  'pay.openidMissing': '请先用微信小程序登录，再使用微信支付',
  'pay.sandboxOff': '生产环境已关闭沙箱支付：这笔测试订单不能支付，请取消后用其他方式重新充值'
} as const

export type MessageKey = keyof typeof zh

const en: Record<MessageKey, string> = {
  ok: 'OK',
  'request.notFound': 'No such API',
  'request.internal': 'Internal server error',
  'request.invalidJson': 'The request body is not valid JSON',
  'request.bodyTooLarge': 'The request body is too large',
  'request.unsupportedMediaType': 'Unsupported request content type',
  'request.bad': 'Bad request',
  'request.headersTooLarge': 'The request headers are too large',
  'request.rateLimited': 'Too many requests, try again in {seconds} s',

  'validation.required': '{field} is required',
  'validation.unknownField': 'Unknown field {field}',
  'validation.type': '{field} must be {type}',
  'validation.minLength': '{field} must be at least {limit} characters',
  'validation.maxLength': '{field} must be at most {limit} characters',
  'validation.format': '{field} has an invalid format',
  'validation.minimum': '{field} must be at least {limit}',
  'validation.maximum': '{field} must be at most {limit}',
  'validation.enum': '{field} has an invalid value',
  'validation.minProperties': '{field} needs at least {limit} fields',
  'validation.invalid': '{field} is invalid',
  'validation.controlChars': '{field} must not contain control characters',
  'type.string': 'a string',
  'type.integer': 'an integer',
  'type.number': 'a number',
  'type.boolean': 'a boolean',
  'type.object': 'an object',
  'type.array': 'an array',
  'type.null': 'null',

  'auth.required': 'Not logged in, or the session has expired',
  'auth.operatorOnly': 'Only an operator can do this',
  'login.identifierRequired': 'One of user_name, phone or email is required',
  'login.onlyOneIdentifier': 'Provide only one of user_name, phone or email',
  'login.passwordRequired': 'password is required',
  'login.failed': 'Incorrect account or password',
  'code.invalid': 'The verification code is wrong or has expired',
  'code.required': 'code is required',
  'code.smsText': 'Blind Box Shop: your verification code is {code}. It expires in {minutes} minutes. Do not share it.',
  'code.mailSubject': 'Blind Box Shop verification code: {code}',
  'code.mailText': 'Your verification code is {code}. It expires in {minutes} minutes. If you did not ask for it, ignore this mail.',
  'register.userNameTaken': 'This user name is taken',
  'register.userNameBlank': 'A user name cannot be only blank space',
  'register.phoneTaken': 'This phone number is already registered',
  'register.emailTaken': 'This e-mail address is already registered',
  'user.defaultNickname': 'Blind-box fan',
  'wechat.defaultNickname': 'WeChat user',
  'wechat.loginFailed': 'WeChat login failed: {reason}',

  'provider.notConfigured': '{provider} is not configured',
  'provider.unavailable': '{provider} is unavailable, please try again later',
  'provider.sms': 'SMS',
  'provider.mail': 'Mail',
  'provider.weapp': 'WeChat mini-program',
  'provider.wechat': 'WeChat web login',

  'data.tableNotFound': 'Table {table} does not exist',
  'data.methodNotAllowed': 'Table {table} does not support {method}',
  'data.rowNotFound': 'Record not found',
  'data.tooManyRows': 'At most {max} {table} records can be saved',
  'data.writeConflict': 'The records were changed at the same time; try again',

  'provider.wechatpay': 'WeChat Pay',

  'series.notFound': 'No such series',
  'series.notOnSale': 'This series is no longer on sale',
  'case.notFound': 'No such case',
  'case.notOnSale': 'This case is sold out or retired; switch to another case',
  'case.switchLimit': 'No case switches left today ({max} a day)',
  'slot.sold': 'Slot {slot} already sold',
  'slot.duplicate': 'Slot {slot} appears twice in {field}',
  'slot.outOfRange': 'Slot {slot} in {field} does not exist (this case has {size} slots)',
  'purchase.slotsOrWholeCase': 'Provide exactly one of {field} and wholeCase',
  'wallet.insufficient': 'Insufficient balance: {shortfall} yuan short',
  'idempotency.keyReused': '{field} was already used for a different request',
  'idempotency.inProgress': 'A request with this {field} is still being processed; try again shortly',
  'age.required': 'Verify your age (birth date) before your first purchase',
  'age.tooYoung': 'Children under {min} cannot buy blind boxes',
  'age.guardianRequired': 'Minors need a guardian\'s consent to buy',
  'age.dailyCap': 'Minors may spend at most {cap} yuan a day; {left} yuan left today',
  'age.birthDateFixed': 'The birth date is already recorded and cannot be changed; contact support if it is wrong',
  'prize.notFound': 'No such prize',
  'prize.duplicate': 'Prize {prizeId} appears twice in {field}',
  'prize.notInWarehouse': 'Prize {prizeId} is not in the warehouse (it is {status})',
  'prize.verifyFailed': 'Check failed: this QR code belongs to no prize this shop has shipped',
  'prizeStatus.warehouse': 'in the warehouse',
  'prizeStatus.shipping': 'requested for shipping',
  'prizeStatus.received': 'received',
  'prizeStatus.combined': 'combined',
  'prizeStatus.recycled': 'recycled',
  'address.notFound': 'No such address',
  'address.blank': '{field} must not be blank',
  'address.tooMany': 'At most {max} addresses can be saved',
  'shipment.notFound': 'No such shipment',
  'shipment.badStatus': 'The shipment is {status}: this cannot be done now',
  'shipmentStatus.requested': 'waiting to be shipped',
  'shipmentStatus.shipping': 'on its way',
  'shipmentStatus.received': 'received',
  'order.idsRequired': 'productId or userId must not be empty',
  'order.userMismatch': 'userId is not the logged-in user',
  'order.unknownOpId': 'Unknown order number {field}: get an order number first',
  'order.opIdUsed': 'The order number {field} was already used',
  'order.unknownProduct': 'No such product {field}',
  'order.productMismatch': '{field} differs from the one the order number was issued for',
  'order.notFound': 'No such order',
  'order.notPayable': 'An order in status {status} cannot be paid',
  'order.notCancelable': 'An order in status {status} cannot be canceled',
  'order.notSandbox': 'This order is not a sandbox order',
  'pay.channelUnavailable': 'The payment method {channel} is not available',
  'pay.openidMissing': 'Log in with the WeChat mini-program to pay with WeChat Pay',
  'pay.sandboxOff': 'Sandbox payments are off in production: this test order cannot be paid; cancel it and top up another way'
}

const catalogue: Record<Locale, Record<MessageKey, string>> = { zh, en }

/** Placeholder values; a string "@key" stands for another message of the catalogue (e.g. "@provider.sms"). */
export type MessageParams = Record<string, string | number>

export function translate (locale: Locale, key: MessageKey, params: MessageParams = {}): string {
  const template = catalogue[locale][key] ?? catalogue.en[key] ?? key
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.prototype.hasOwnProperty.call(params, name)) return whole
    const value = params[name]
    if (typeof value === 'string' && value.startsWith('@') && isMessageKey(value.slice(1))) {
      return catalogue[locale][value.slice(1) as MessageKey]
    }
    return String(value)
  })
}

/** zh when the header starts with "zh" (zh, zh-CN, zh-Hans-CN ...), else en. */
export function localeFrom (acceptLanguage: string | string[] | undefined): Locale {
  const value = Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage
  return value?.trim().toLowerCase().startsWith('zh') ? 'zh' : 'en'
}

export function isMessageKey (key: string): key is MessageKey {
  return Object.prototype.hasOwnProperty.call(zh, key)
}
