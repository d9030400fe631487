import type { FakeProvider } from './http'
export interface Kuaidi100Call { path: string; form: Record<string, string>; param: any; contentType: string }
export interface FakeParcel { com: string; phone?: string; state: string; ischeck: string; data: Array<[string, string, string, string]> }
export interface FakeKuaidi100 extends FakeProvider<Kuaidi100Call> { customer: string; key: string; parcels: Record<string, FakeParcel> }
export const CUSTOMER: string
export const KEY: string
export function start (): Promise<FakeKuaidi100>
