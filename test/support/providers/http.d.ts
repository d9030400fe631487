/** What every provider fake offers (see http.js). */
export type Trouble = 'http500' | 'garbage' | 'hang' | { json: unknown }
export interface FakeProvider<Call> {
  url: string
  calls: Call[]
  /** Forces the next answer. */
  next: Trouble | null
  close (): Promise<void>
}
export function md5 (text: string): string
