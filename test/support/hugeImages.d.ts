export function pngClaiming (width: number, height: number): Buffer
export function jpegClaiming (width: number, height: number, appBytes?: number): Buffer
export function gifWithFrame (screenW: number, screenH: number, left: number, top: number, frameW: number, frameH: number): Buffer
export function webpClaiming (width: number, height: number): Buffer
