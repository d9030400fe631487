import type { FakeProvider } from './http'
export interface JuheCall { api: 'train' | 'flight'; [param: string]: string }
export function start (): Promise<FakeProvider<JuheCall> & { quotaLeft: number }>
export function envFor (fake: { url: string }): Record<string, string>
export const TRAIN_KEY: string
export const FLIGHT_KEY: string
export const STATIONS: string[]
export const AIRPORTS: Record<string, string>
