import type { FakeProvider } from './http'
export interface AmapCall { path: string; query: Record<string, string> }
export interface FakeAmap extends FakeProvider<AmapCall> { key: string }
export const KEY: string
export function start (): Promise<FakeAmap>
