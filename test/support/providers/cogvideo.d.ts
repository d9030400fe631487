import type { FakeProvider } from './http'
export type CogVideoCall = { kind: 'create'; body: { model: string; prompt: string; request_id?: string } } | { kind: 'result'; id: string }
export function start (): Promise<FakeProvider<CogVideoCall> & { tasks: Map<string, { prompt: string; polls: number }>; pollsBeforeDone: number }>
export function envFor (fake: { url: string }): Record<string, string>
export const KEY: string
