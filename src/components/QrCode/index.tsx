import { useMemo } from 'react'
import { View, Image } from '@tarojs/components'
import { qrMatrix, qrSvgDataUrl, rowRuns, QR_MARGIN } from '@/utils/qr'
import './index.scss'

export interface QrCodeProps {
  /** What the code encodes. */
  text: string
  /** Sizes the square (default 240 design px, quiet zone included). */
  className?: string
}

const pct = (n: number) => `${n.toFixed(4)}%`

/**
 * A QR code. H5: an <img> of an SVG data URL (sharp at any zoom and in print). Mini-program: rows of
 * Views, one per run of equal modules (about 15 a row instead of 41), sized in percent of the square.
 */
export default function QrCode ({ text, className }: QrCodeProps) {
  const matrix = useMemo(() => qrMatrix(text), [text])
  if (process.env.TARO_ENV === 'h5') {
    return <Image className={`qr-code ${className ?? ''}`} src={qrSvgDataUrl(matrix)} mode='scaleToFill' />
  }
  const n = matrix.length
  const quiet = pct(100 * QR_MARGIN / (n + QR_MARGIN * 2))
  return (
    <View className={`qr-code qr-code--grid ${className ?? ''}`}>
      <View className='qr-code__modules' style={{ top: quiet, right: quiet, bottom: quiet, left: quiet }}>
        {matrix.map((row, r) => (
          <View key={r} className='qr-code__row' style={{ height: pct(100 / n) }}>
            {rowRuns(row).map(run => (
              <View key={run.start} className={run.dark ? 'qr-code__run qr-code__run--dark' : 'qr-code__run'} style={{ width: pct(100 * run.length / n) }} />
            ))}
          </View>
        ))}
      </View>
    </View>
  )
}
