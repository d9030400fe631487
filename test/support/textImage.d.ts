export function renderText (lines: string[], o?: { px?: number; width?: number; height?: number; angle?: number; noise?: number; background?: string; color?: string; type?: 'png' | 'jpeg' }): Buffer
