import type { FakeProvider } from './http'
export interface RobotCall { text: string; timestamp?: string; sign?: string }
export function startFeishu (o?: { secret?: string; now?: () => number }): Promise<FakeProvider<RobotCall>>
export function startWeCom (): Promise<FakeProvider<RobotCall>>
export function envFor (feishu: { url: string }, wecom: { url: string }): Record<string, string>
export const FEISHU_SECRET: string
export const WECOM_KEY: string
