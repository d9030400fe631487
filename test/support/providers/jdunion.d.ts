import type { FakeProvider } from './http'
export interface JdGoodsReq { keyword?: string; spuId?: number; pageIndex?: number; pageSize?: number }
export function start (): Promise<FakeProvider<JdGoodsReq> & { spus: Map<string, string>; now: () => number }>
export function envFor (fake: { url: string }): Record<string, string>
export function sign (params: Record<string, string>, secret: string): string
export const APP_KEY: string
export const APP_SECRET: string
