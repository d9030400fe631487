import { accountKind, checkAccount, checkCode, checkEmail, checkPassword, checkNewUsername, checkPhone, checkUsername, validateLogin, type LoginForm } from '@/utils/validation'

const form = (f: Partial<LoginForm>): LoginForm => ({
  account: '', phone: '', email: '', password: '', code: '', agreed: true, registerBy: 'user_name', ...f
})

it('limits of spec 5: user name 1-100, password 3-18, code 4-6', () => {
  expect(checkUsername('')).toBe('login.usernameLength')
  expect(checkUsername('a')).toBeNull()
  expect(checkUsername('a'.repeat(100))).toBeNull()
  expect(checkUsername('a'.repeat(101))).toBe('login.usernameLength')
  expect(checkPassword('')).toBe('login.needPassword')
  expect(checkPassword('ab')).toBe('login.passwordLength')
  expect(checkPassword('abc')).toBeNull()
  expect(checkPassword('a'.repeat(18))).toBeNull()
  expect(checkPassword('a'.repeat(19))).toBe('login.passwordLength')
  expect(checkCode('123')).toBe('login.codeLength')
  expect(checkCode('1234')).toBeNull()
  expect(checkCode('123456')).toBeNull()
  expect(checkCode('1234567')).toBe('login.codeLength')
})

it('phone and e-mail formats', () => {
  expect(checkPhone('13812345678')).toBeNull()
  expect(checkPhone('12812345678')).toBe('login.phoneInvalid')
  expect(checkPhone('1381234567')).toBe('login.phoneInvalid')
  expect(checkEmail('a@b.co')).toBeNull()
  expect(checkEmail('a@b')).toBe('login.emailInvalid')
  expect(checkEmail('a b@c.d')).toBe('login.emailInvalid')
})

it('a password-login account is one of user_name, phone or email', () => {
  expect(checkAccount('')).toBe('login.needAccount')
  expect(accountKind('13812345678')).toBe('phone')
  expect(accountKind('amy@example.com')).toBe('email')
  expect(accountKind('amy')).toBe('user_name')
  expect(checkAccount('amy@')).toBe('login.emailInvalid')
})

it('each mode checks its fields and the agreement', () => {
  expect(validateLogin('password', form({}))).toEqual({ account: 'login.needAccount', password: 'login.needPassword' })
  expect(validateLogin('password', form({ account: 'amy', password: 'secret', agreed: false }))).toEqual({ agreed: 'login.agreeRequired' })
  expect(validateLogin('sms', form({ phone: '1', code: '12' }))).toEqual({ phone: 'login.phoneInvalid', code: 'login.codeLength' })
  expect(validateLogin('email', form({ email: 'x@y.z', code: '1234' }))).toEqual({})
  expect(validateLogin('register', form({ registerBy: 'phone', phone: '13812345678', password: 'abc' }))).toEqual({ code: 'login.codeLength' })
  expect(validateLogin('register', form({ registerBy: 'user_name', account: 'amy', password: 'abc' }))).toEqual({})
})

it('a user name to register refuses invisible characters (issue 48); logging in with one is still checked by length only', () => {
  for (const hidden of ['al\u200bice', 'al\u00adice', 'al\u200dice', 'al\u2060ice', 'alice\ufe0f', 'al\u202eice', 'a\u0007b', '\u2800', 'a\u{E0041}']) {
    expect(checkNewUsername(hidden)).toBe('login.usernameInvisible')
    expect(validateLogin('register', form({ account: hidden, password: 'abc' }))).toEqual({ account: 'login.usernameInvisible' })
    expect(checkAccount(hidden)).toBeNull()
  }
  // trimmed away, a space inside, other scripts and emoji with no variation selector are fine
  for (const fine of [' alice ', 'al ice', '爱丽丝', 'Ölfass', 'a😀']) expect(checkNewUsername(fine)).toBeNull()
  expect(checkNewUsername('')).toBe('login.usernameLength')
})
