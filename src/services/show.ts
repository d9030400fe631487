/**
 * The player show (types/show.ts): the feed, posting, likes, comments and reports; the operators'
 * moderation queue and word list.
 */
import type {
  ShowCommentRequest, ShowCreateRequest, ShowListRequest, ShowModerateRequest, ShowQueueRequest, ShowReportRequest, showRoutes
} from '~types/show'
import { postRoute } from './request'

type R = typeof showRoutes

export const showApi = {
  list: (q: ShowListRequest) => postRoute<R['list']>('/api/show/list', q),
  detail: (postId: number) => postRoute<R['detail']>('/api/show/detail', { postId }),
  create: (body: ShowCreateRequest) => postRoute<R['create']>('/api/show/create', body),
  remove: (postId: number) => postRoute<R['remove']>('/api/show/delete', { postId }),
  like: (postId: number, liked: boolean) => postRoute<R['like']>('/api/show/like', { postId, liked }),
  comments: (postId: number, page: number, size: number) => postRoute<R['comments']>('/api/show/comments', { postId, page, size }),
  comment: (body: ShowCommentRequest) => postRoute<R['comment']>('/api/show/comment', body),
  report: (body: ShowReportRequest) => postRoute<R['report']>('/api/show/report', body),
  queue: (q: ShowQueueRequest) => postRoute<R['queue']>('/api/operator/show/queue', q),
  moderate: (body: ShowModerateRequest) => postRoute<R['moderate']>('/api/operator/show/moderate', body),
  words: () => postRoute<R['words']>('/api/operator/show/words', {}),
  saveWords: (words: string[]) => postRoute<R['wordsSave']>('/api/operator/show/wordsSave', { words })
}
