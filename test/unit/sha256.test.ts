import { createHash, randomBytes } from 'node:crypto'
import { commitInput, sha256Hex, utf8, verifyCommit } from '@/utils/sha256'

const node = (s: string | Uint8Array) => createHash('sha256').update(s).digest('hex')

it('matches the FIPS 180-4 test vectors', () => {
  expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')
  expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')
  expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))
    .toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1')
})

it('agrees with node:crypto on every length across block boundaries and on UTF-8 text', () => {
  for (let n = 0; n < 200; n++) {
    const bytes = new Uint8Array(randomBytes(n))
    expect(sha256Hex(bytes)).toBe(node(bytes))
  }
  for (const s of ['拾盒', '🦄 hidden', 'é', 'a'.repeat(1000)]) {
    expect(Buffer.from(utf8(s)).equals(Buffer.from(s, 'utf8'))).toBe(true)
    expect(sha256Hex(s)).toBe(node(s))
  }
})

it('verifies a case commitment and rejects a moved design', () => {
  const arrangement = [4, 2, 9, 1, 7, 3, 12, 5, 6, 8, 10, 11]
  const salt = randomBytes(16).toString('hex')
  const commit = node(`17:${arrangement.join(',')}:${salt}`)
  expect(commitInput(17, arrangement, salt)).toBe(`17:4,2,9,1,7,3,12,5,6,8,10,11:${salt}`)
  expect(verifyCommit(17, arrangement, salt, commit)).toBe(true)
  expect(verifyCommit(17, arrangement, salt, commit.toUpperCase())).toBe(true)
  const swapped = [...arrangement]
  ;[swapped[0], swapped[1]] = [swapped[1], swapped[0]]
  expect(verifyCommit(17, swapped, salt, commit)).toBe(false)
  expect(verifyCommit(18, arrangement, salt, commit)).toBe(false)
})
