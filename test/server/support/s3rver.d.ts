/** The part of s3rver 3.7.1 (no types of its own) that support/s3.ts uses. */
declare module 's3rver' {
  import type { Server } from 'node:http'
  import type { Readable } from 'node:stream'

  interface S3rverOptions {
    port?: number
    address?: string
    directory?: string
    silent?: boolean
    configureBuckets?: Array<{ name: string; configs?: Array<string | Buffer> }>
  }

  interface StoredObject { key: string; content: Readable; metadata: Record<string, string> }

  class S3rver {
    constructor (options: S3rverOptions)
    run (): Promise<{ address: string; port: number }>
    close (): Promise<void>
    httpServer?: Server
    store: {
      getObject (bucket: string, key: string): Promise<StoredObject | null>
      listObjects (bucket: string, options: { prefix?: string }): Promise<{ objects: Array<{ key: string }> }>
    }
  }
  export = S3rver
}
