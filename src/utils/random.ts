/** Random helpers (spec 5): a string of letters and digits (default length 30); an integer in [min, max]. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'

function randomUint32 (): number {
  const c = (globalThis as { crypto?: Crypto }).crypto
  if (c?.getRandomValues) return c.getRandomValues(new Uint32Array(1))[0]
  return Math.floor(Math.random() * 0x100000000)
}

/** Unbiased integer in [0, n) by rejection sampling. */
function below (n: number): number {
  const limit = Math.floor(0x100000000 / n) * n
  for (;;) {
    const x = randomUint32()
    if (x < limit) return x % n
  }
}

export function randomString (length = 30): string {
  let out = ''
  for (let i = 0; i < length; i++) out += ALPHABET[below(ALPHABET.length)]
  return out
}

export function randomNumber (min = 0, max = 100): number {
  const lo = Math.ceil(Math.min(min, max))
  const hi = Math.floor(Math.max(min, max))
  return lo + below(hi - lo + 1)
}
