/**
 * Words every part of the contract uses: the language, a text in both languages, a design's rarity.
 */
import { Type, type Static } from 'typebox'
import { StringEnum } from '../schema'

export const Lang = StringEnum(['zh', 'en'] as const)
export type Lang = Static<typeof Lang>
/** A text in both languages. */
export const I18nText = Type.Object({ zh: Type.String(), en: Type.String() })
export type I18nText = Static<typeof I18nText>
export const Rarity = StringEnum(['regular', 'rare', 'hidden'] as const)
export type Rarity = Static<typeof Rarity>
