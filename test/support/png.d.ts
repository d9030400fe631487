export function makePng (width: number, height: number, rgb: [number, number, number]): Buffer
export function multipartBody (field: string, filename: string, contentType: string, bytes: Buffer, boundary?: string): { body: Buffer; contentType: string }
export function crc32 (buf: Uint8Array): number
export function chunk (type: string, data: Buffer): Buffer
