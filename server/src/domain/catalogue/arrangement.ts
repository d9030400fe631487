/**
 * Making a case: its composition (every regular and rare design once; with the hidden chance one
 * uniformly chosen regular design replaced by the hidden one), a Fisher-Yates shuffle driven by
 * crypto.randomInt (a CSPRNG without modulo bias), a 16-byte salt and the published commitment
 *   commit = sha256_hex(`${caseId}:${designIds joined by ','}:${salt}`)   (design ids in slot order)
 */
import { createHash, randomBytes, randomInt } from 'node:crypto'
import type { Rarity } from '../../../../types/shop'
import { PPM } from './odds'

export interface ComposableDesign { id: number; rarity: Rarity }

/** A random integer in [0, max): injectable for tests. */
export type RandomInt = (max: number) => number
export const secureRandomInt: RandomInt = (max) => randomInt(max)

/** The designs of a new case, unshuffled; `hidden` tells whether the hidden design is in it. */
export function composeCase (designs: readonly ComposableDesign[], hiddenCasePpm: number, random: RandomInt = secureRandomInt): { designIds: number[]; hidden: boolean } {
  const nonHidden = designs.filter(d => d.rarity !== 'hidden')
  const designIds = nonHidden.map(d => d.id)
  const hiddenDesign = designs.find(d => d.rarity === 'hidden')
  if (!hiddenDesign || hiddenCasePpm <= 0 || random(PPM) >= hiddenCasePpm) return { designIds, hidden: false }
  const regularIndexes = nonHidden.map((d, i) => d.rarity === 'regular' ? i : -1).filter(i => i >= 0)
  const replaced = regularIndexes[random(regularIndexes.length)]
  designIds[replaced] = hiddenDesign.id
  return { designIds, hidden: true }
}

/** Fisher-Yates, in place; answers the array. */
export function shuffle<T> (items: T[], random: RandomInt = secureRandomInt): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random(i + 1)
    const tmp = items[i]
    items[i] = items[j]
    items[j] = tmp
  }
  return items
}

export function newSalt (): string {
  return randomBytes(16).toString('hex')
}

export function commitOf (caseId: number, designIds: readonly number[], salt: string): string {
  return createHash('sha256').update(`${caseId}:${designIds.join(',')}:${salt}`, 'utf8').digest('hex')
}
