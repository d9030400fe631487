/** The odds of the case model live in types/odds.ts: the editor's live preview runs the same code. */
export * from '../../../../types/odds'
