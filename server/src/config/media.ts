/**
 * Where media bytes live (domain/mediaStore.ts): in the database (default) or in an S3-compatible
 * bucket (AWS S3, MinIO, Alibaba OSS, Tencent COS), optionally behind a CDN.
 */
import { isUrl, variable, type Problems, type Reader } from './env'

const REGION = /^[a-z0-9-]{2,40}$/
// S3's bucket naming rules: 3-63 characters, lower-case letters, digits, dots and hyphens, a letter or digit at each end
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

export const mediaVariables = {
  MEDIA_STORE: variable.oneOf(['database', 's3'], 'Where uploads, speech and PDF pages are kept', 'database'),
  S3_ENDPOINT: variable.url('The storage service\'s origin without a path (https in production), e.g. https://s3.amazonaws.com or http://127.0.0.1:9000 (MinIO)'),
  S3_REGION: variable.text('The bucket\'s region, e.g. us-east-1 or cn-hangzhou', { pattern: REGION }),
  S3_BUCKET: variable.text('The bucket\'s name', { pattern: BUCKET }),
  S3_ACCESS_KEY_ID: variable.text('The access key id (allowed s3:PutObject and s3:GetObject on media/)'),
  S3_SECRET_ACCESS_KEY: variable.text('The secret access key'),
  S3_FORCE_PATH_STYLE: variable.oneOf(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no'], 'true: https://endpoint/bucket/key; false: https://bucket.endpoint/key; unset: true except on *.amazonaws.com'),
  MEDIA_PUBLIC_BASE: variable.url('s3 only: a CDN origin serving the bucket\'s media/<sha256>.<ext>, where originals are redirected')
}

export interface S3Settings {
  /** The service's origin, e.g. https://s3.amazonaws.com or http://127.0.0.1:9000 (MinIO). */
  endpoint: string
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** true: https://endpoint/bucket/key; false: https://bucket.endpoint/key (virtual-hosted). */
  forcePathStyle: boolean
}

/**
 * Where media bytes live (domain/mediaStore.ts): MEDIA_STORE=database (default) or s3 with S3_ENDPOINT,
 * S3_REGION, S3_BUCKET, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and S3_FORCE_PATH_STYLE; MEDIA_PUBLIC_BASE
 * (s3 only): a CDN origin that serves the bucket's media/<sha256>.<ext>, where originals are redirected.
 */
export type MediaConfig =
  | { store: 'database' }
  | { store: 's3'; s3: S3Settings; publicBase: string | null }

const S3_VARIABLES = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'MEDIA_PUBLIC_BASE'] as const
const S3_REQUIRED = ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const

/**
 * MEDIA_STORE (database | s3) and, for s3, the bucket: every S3_* variable but S3_FORCE_PATH_STYLE
 * (default true, except on AWS's own *.amazonaws.com endpoints, which take virtual-hosted requests) and
 * MEDIA_PUBLIC_BASE (optional). In production the endpoint and the public base must be https:// (the
 * files travel in the clear otherwise, and a browser on the https shop refuses http pictures).
 */
export function parseMedia (env: Reader<keyof typeof mediaVariables>, production: boolean, problems: Problems): MediaConfig {
  const store = env.value('MEDIA_STORE')
  if (store !== 'database' && store !== 's3') {
    problems.push(`MEDIA_STORE must be database or s3 (got ${JSON.stringify(store.slice(0, 40))})`)
    return { store: 'database' }
  }
  if (store === 'database') {
    const stray = S3_VARIABLES.filter(n => env.get(n) !== undefined)
    if (stray.length) problems.push(`${stray.join(', ')} ${stray.length > 1 ? 'are' : 'is'} set but MEDIA_STORE is not s3: set MEDIA_STORE=s3 to keep media in the bucket, or unset ${stray.length > 1 ? 'them' : 'it'}`)
    return { store: 'database' }
  }
  const missing = S3_REQUIRED.filter(n => env.get(n) === undefined)
  if (missing.length) {
    problems.push(`MEDIA_STORE=s3 needs ${missing.join(', ')}`)
    return { store: 'database' }
  }
  const before = problems.length
  const protocols = production ? ['https:'] : ['http:', 'https:']
  const endpoint = env.get('S3_ENDPOINT')!.replace(/\/+$/, '')
  if (!isUrl(endpoint, protocols) || new URL(endpoint).pathname !== '/' || new URL(endpoint).search || new URL(endpoint).username) {
    problems.push(`S3_ENDPOINT must be the storage service's ${production ? 'https://' : 'http(s)://'} origin without a path, e.g. https://s3.amazonaws.com, https://oss-cn-hangzhou.aliyuncs.com or http://127.0.0.1:9000 (MinIO)`)
  }
  const region = env.get('S3_REGION')!
  if (!REGION.test(region)) problems.push('S3_REGION must be the bucket\'s region, e.g. us-east-1, cn-hangzhou or ap-guangzhou (lower-case letters, digits and -)')
  const bucket = env.get('S3_BUCKET')!
  if (!BUCKET.test(bucket) || bucket.includes('..')) problems.push('S3_BUCKET must be a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens, starting and ending with a letter or digit')
  const accessKeyId = env.get('S3_ACCESS_KEY_ID')!
  if (!/^[\x21-\x7e]{1,128}$/.test(accessKeyId)) problems.push('S3_ACCESS_KEY_ID must be the access key id (printable characters, no spaces)')
  const secretAccessKey = env.get('S3_SECRET_ACCESS_KEY')!
  if (!/^[\x21-\x7e]{1,256}$/.test(secretAccessKey)) problems.push('S3_SECRET_ACCESS_KEY must be the secret access key (printable characters, no spaces)')
  const forcePathStyle = parsePathStyle(env.get('S3_FORCE_PATH_STYLE'), endpoint, problems)
  if (!forcePathStyle && bucket.includes('.') && endpoint.startsWith('https:')) problems.push('S3_FORCE_PATH_STYLE=false over https needs a S3_BUCKET without dots (a dotted bucket name breaks the TLS certificate of bucket.endpoint)')
  const publicBaseRaw = env.get('MEDIA_PUBLIC_BASE')
  const publicBase = publicBaseRaw ? publicBaseRaw.replace(/\/+$/, '') : null
  if (publicBase !== null && (!isUrl(publicBase, protocols) || new URL(publicBase).search || new URL(publicBase).hash)) {
    problems.push(`MEDIA_PUBLIC_BASE must be the CDN's ${production ? 'https://' : 'http(s)://'} origin (or origin and path) that serves the bucket's media/<sha256>.<ext>, e.g. https://cdn.example.com`)
  }
  if (problems.length > before) return { store: 'database' }
  return { store: 's3', s3: { endpoint, region, bucket, accessKeyId, secretAccessKey, forcePathStyle }, publicBase }
}

/** S3_FORCE_PATH_STYLE: a yes or a no; unset, path style except on AWS's own endpoints. */
function parsePathStyle (raw: string | undefined, endpoint: string, problems: Problems): boolean {
  if (raw === undefined) return !(isUrl(endpoint, ['http:', 'https:']) && /(^|\.)amazonaws\.com$/.test(new URL(endpoint).hostname))
  if (['true', '1', 'on', 'yes'].includes(raw.toLowerCase())) return true
  if (['false', '0', 'off', 'no'].includes(raw.toLowerCase())) return false
  problems.push(`S3_FORCE_PATH_STYLE must be true (https://endpoint/bucket/key) or false (https://bucket.endpoint/key), got ${JSON.stringify(raw.slice(0, 20))}`)
  return true
}
