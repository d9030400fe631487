import type { FakeProvider } from './http'
export type SunoCall = { kind: 'generate'; body: { prompt: string; make_instrumental: boolean; wait_audio: boolean } } | { kind: 'get'; ids: string[] }
export function start (): Promise<FakeProvider<SunoCall> & { clips: Map<string, { id: string; prompt: string; polls: number }>; pollsBeforeDone: number }>
export function envFor (fake: { url: string }): Record<string, string>
export const KEY: string
