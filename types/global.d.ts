/// <reference types="@tarojs/taro" />

declare module '*.png'
declare module '*.gif'
declare module '*.jpg'
declare module '*.jpeg'
declare module '*.svg'
declare module '*.webp'
declare module '*.mp3'
declare module '*.wav'
declare module '*.css'
declare module '*.scss'

declare namespace NodeJS {
  interface ProcessEnv {
    TARO_ENV: 'weapp' | 'h5' | 'swan' | 'alipay' | 'tt' | 'qq' | 'jd' | 'harmony'
    TARO_APP_API_BASE?: string
    TARO_APP_ID?: string
    TARO_APP_TYPE?: string
    TARO_APP_ENV?: string
    TARO_APP_LOCALE?: string
    TARO_APP_ERROR_REPORT?: string
    TARO_APP_ERROR_REPORT_URL?: string
  }
}
