import type { FakeProvider } from './http'
export interface TencentCall { path: string; query: Record<string, string> }
export interface FakeTencent extends FakeProvider<TencentCall> { key: string; sk: string | null }
export const KEY: string
export const SK: string
export function start (options?: { sk?: string }): Promise<FakeTencent>
/** Tencent's polyline compression (the inverse of what the client decompresses). */
export function compress (flat: number[]): number[]
