import type { FakeProvider } from './http'
export interface DifyCall { query: string; inputs: Record<string, string>; response_mode: string; conversation_id: string; user: string; files?: Array<{ type: string; transfer_method: string; url: string }> }
export function start (): Promise<FakeProvider<DifyCall> & { conversations: Map<string, string> }>
export function envFor (fake: { url: string }): Record<string, string>
export const KEY: string
export const DICTIONARY: Record<string, string>
