import type { FakeProvider } from './http'
export interface ImagesCall { model: string; prompt: string; n?: number; size?: string; response_format?: string }
export function start (): Promise<FakeProvider<ImagesCall> & { files: Map<string, Buffer> }>
export function envFor (fake: { url: string }): Record<string, string>
export const KEY: string
export const MODEL: string
