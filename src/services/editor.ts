/** The series editor (types/editor.ts): series by status, one series, save, publish, retire, open cases ahead, stock. */
import type { EditorSeriesListRequest, EditorSeriesSaveRequest, StockSaveRequest, editorRoutes } from '~types/editor'
import { postRoute } from './request'

type R = typeof editorRoutes

export const editorApi = {
  list: (q: EditorSeriesListRequest) => postRoute<R['seriesList']>('/api/operator/seriesList', q),
  get: (seriesId: number) => postRoute<R['series']>('/api/operator/series', { seriesId }),
  save: (body: EditorSeriesSaveRequest) => postRoute<R['seriesSave']>('/api/operator/seriesSave', body),
  publish: (seriesId: number, lowValueAcknowledged?: number[]) => postRoute<R['seriesPublish']>('/api/operator/seriesPublish', lowValueAcknowledged ? { seriesId, lowValueAcknowledged } : { seriesId }),
  retire: (seriesId: number) => postRoute<R['seriesRetire']>('/api/operator/seriesRetire', { seriesId }),
  openAhead: (seriesId: number, count: number) => postRoute<R['casesOpenAhead']>('/api/operator/casesOpenAhead', { seriesId, count }),
  stock: (seriesId: number) => postRoute<R['stock']>('/api/operator/stock', { seriesId }),
  stockSave: (body: StockSaveRequest) => postRoute<R['stockSave']>('/api/operator/stockSave', body)
}
