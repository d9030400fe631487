import type { Dict } from './types'

const en: Dict = {
  app: {
    name: 'Pickbox',
    slogan: 'Every box you open can be checked',
    language: 'Language',
    languageName: 'English',
    switchTo: '中文'
  },
  titles: {
    login: 'Log in',
    web_view: 'Web page',
    editor: 'Blind-box editor',
    prize_detail: 'Prize details',
    profile: 'My account',
    purchase: 'Buy a blind box',
    props: 'Props',
    home: 'Home',
    blind_box_detail: 'Blind box details',
    my_blind_box: 'My blind boxes',
    security: 'Account security',
    prize_show: 'Your prizes',
    open_chest_animation: 'Opening',
    recharge: 'Top up and withdraw',
    combine_result: 'Combine result',
    combine: 'Combine'
  },
  nav: {
    back: 'Back',
    home: 'Home',
    emptyLink: 'Please provide a link address',
    invalidLink: 'Invalid link',
    invalidJumpType: 'Invalid jump type',
    refreshFailed: 'Page refresh failed',
    pageNotFound: 'Page not found'
  },
  feedback: {
    done: 'done',
    confirm: 'Confirm',
    cancel: 'Cancel',
    loading: 'Loading…',
    noMore: 'no more data',
    empty: 'Nothing here yet',
    retry: 'Retry',
    comingSoon: 'Coming soon'
  },
  request: {
    networkError: 'Network error, please try again later!',
    timeout: 'The request timed out, please try again later',
    canceled: 'The request was canceled',
    sessionExpired: 'Your session has expired, please log in again'
  },
  login: {
    welcome: 'Welcome to Pickbox',
    subtitle: 'Log in to open, collect and combine',
    tabPassword: 'Password',
    tabSms: 'SMS code',
    tabEmail: 'E-mail code',
    register: 'Sign up',
    registerTitle: 'Create an account',
    haveAccount: 'Have an account? Log in',
    noAccount: 'No account yet? Sign up',
    account: 'Account',
    accountPlaceholder: 'User name / phone / e-mail',
    username: 'User name',
    usernamePlaceholder: '1-100 characters',
    password: 'Password',
    passwordPlaceholder: '3-18 characters',
    phone: 'Phone',
    phonePlaceholder: '11-digit mobile number',
    email: 'E-mail',
    emailPlaceholder: 'name@example.com',
    code: 'Code',
    codePlaceholder: '4-6 digits',
    sendCode: 'Get code',
    resendIn: 'Resend in {n} s',
    submit: 'Log in',
    submitRegister: 'Sign up and log in',
    wechat: 'Log in with WeChat',
    agreePrefix: 'I have read and agree to the ',
    serviceAgreement: 'Terms of Service',
    privacyPolicy: 'Privacy Policy',
    and: ' and the ',
    needAccount: 'One of user_name, phone or email is required',
    needPassword: 'password is required',
    usernameLength: 'The user name must be 1-100 characters long',
    passwordLength: 'The password must be 3-18 characters long',
    codeLength: 'The code must be 4-6 characters long',
    phoneInvalid: 'Please enter a valid phone number',
    emailInvalid: 'Please enter a valid e-mail address',
    agreeRequired: 'Please read and agree to the Terms of Service and the Privacy Policy first',
    loginFailed: 'Login failed',
    codeSendFailed: 'The verification code could not be sent',
    codeSent: 'Code sent',
    authDenied: 'You have denied authorization',
    enterCorrectInfo: 'Please enter the correct information',
    success: 'Logged in'
  },
  agreements: {
    serviceTitle: 'Terms of Service',
    serviceBody: 'Welcome to Pickbox.\n1. Designs, rarities, per-box odds and value ranges are shown before you buy; buying means you have seen them.\n2. Every case publishes a commitment (sha256) before it goes on sale and reveals its arrangement and salt once sold out or retired, so anyone can check it.\n3. A single box costs at most 200 yuan; under 8 years nobody can buy, from 8 to 17 a guardian must consent and a daily limit applies.\n4. Prizes never turn into cash; recycling gives credit, which cannot be withdrawn.\n5. Unspent top-up cash can be withdrawn after review and goes back the way it came.',
    privacyTitle: 'Privacy Policy',
    privacyBody: 'We collect only what the service needs: your account (user name, phone or e-mail), your orders and prizes, and your shipping addresses.\n1. Passwords are stored as salted argon2id hashes; codes and session tokens only as hashes.\n2. Wins shown in the live feed hide your name.\n3. In Account security you can see and end your sessions and ask for an export of your data.\n4. We never sell your personal information.'
  },
  webView: {
    missingUrl: 'Please provide a link address',
    openExternal: 'Open in browser'
  },
  home: {
    hello: 'Hello, {name}',
    guest: 'Hello, have a look around',
    bannerTitle: 'See the odds before you open',
    bannerText: 'Every case publishes its commitment first and its arrangement once sold out: anyone can check it.',
    seriesOnSale: 'Series on sale',
    liveFeed: 'Live lucky draws',
    feedEmpty: 'No rare prize has been drawn yet',
    pullToRefresh: 'Pull to refresh'
  },
  detail: {
    designs: 'Designs',
    odds: 'Odds per box',
    valueRange: 'Value range',
    rules: 'Rules',
    currentCase: 'Current case',
    switchCase: 'Switch case',
    pickSlots: 'Buy picked boxes',
    wholeCase: 'Buy whole case',
    sold: 'Sold',
    noSeries: 'Series not found'
  },
  purchase: {
    items: 'What you buy',
    price: 'Price',
    credit: 'Credit',
    cash: 'Cash',
    pay: 'Pay now',
    disclosure: 'I have seen the designs, odds and rules',
    nothing: 'No box selected yet'
  },
  recharge: {
    balance: 'My balance',
    cash: 'Cash',
    credit: 'Credit',
    topUp: 'Top up',
    withdraw: 'Withdraw',
    custom: 'Custom amount',
    ledger: 'History',
    yuan: '¥{n}'
  },
  chest: {
    tapToOpen: 'Tap to open',
    skip: 'Skip',
    next: 'Next',
    waiting: 'Getting your box ready'
  },
  prize: {
    results: 'Your results',
    again: 'Again',
    toCollection: 'To collection',
    share: 'Share',
    rarity: 'Rarity',
    value: 'Reference value',
    recycleValue: 'Recycle value',
    proof: 'Fairness proof',
    commit: 'Commitment',
    verify: 'Check on this device',
    none: 'No prizes yet'
  },
  collection: {
    all: 'All',
    warehouse: 'In warehouse',
    shipping: 'Shipping',
    received: 'Received',
    combined: 'Combined',
    recycled: 'Recycled',
    progress: 'Set {owned}/{total}',
    export: 'Export (xlsx)',
    exported: 'Saved {name}',
    loginFirst: 'Log in to see your boxes'
  },
  combine: {
    recipe: 'Recipe',
    pick: 'Pick items',
    start: 'Combine',
    pool: 'Output pool and odds',
    seed: 'Seeds',
    result: 'Result',
    back: 'Combine again'
  },
  editor: {
    title: 'Series name',
    description: 'Description',
    price: 'Price per box (yuan)',
    caseSize: 'Boxes per case',
    designs: 'Designs',
    save: 'Save draft',
    priceLimit: 'A box costs at most 200 yuan'
  },
  profile: {
    guest: 'Not logged in',
    loginNow: 'Log in',
    myBoxes: 'My blind boxes',
    props: 'Props',
    wallet: 'Top up and withdraw',
    security: 'Account security',
    editor: 'Blind-box editor',
    language: 'Language',
    logout: 'Log out',
    logoutConfirm: 'Log out now?'
  },
  props: {
    shake: 'Shake',
    shakeDesc: 'Free 3 times a day: rules out one design for an unsold box',
    hint: 'Hint card',
    hintDesc: 'Rules out one more design for the same box',
    xray: 'X-ray card',
    xrayDesc: 'Shows the design in an unsold box and holds it for you for 10 minutes',
    owned: 'Owned {n}'
  },
  security: {
    password: 'Change password',
    phone: 'Bind phone',
    email: 'Bind e-mail',
    sessions: 'Devices',
    limits: 'Spending limits',
    guardian: 'Guardian consent'
  }
}

export default en
