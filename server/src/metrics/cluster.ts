/**
 * Metrics with WORKERS > 1 (node:cluster, docs/processes.md). Each API process counts in its own
 * registries, and a scrape reaches whichever process the primary hands the connection to. That process
 * asks the primary, and the primary gathers every worker's metrics with prom-client's AggregatorRegistry:
 * counters, histograms and most gauges are summed over the workers; the books' imbalance, the same in
 * every process, is taken once. So one scrape, whichever worker answers it, shows the whole server
 * (not the primary itself, which answers no requests).
 */
import cluster from 'node:cluster'
import { AggregatorRegistry, type Registry } from 'prom-client'

const REQUEST = 'pickbox:metrics-request'
const ANSWER = 'pickbox:metrics-answer'

/** How long a worker waits for the primary's answer (prom-client's own wait for the workers is 5 s). */
export const CLUSTER_METRICS_TIMEOUT_MS = 7000

interface Request { type: typeof REQUEST; id: number }
interface Answer { type: typeof ANSWER; id: number; text?: string; error?: string }

/** A worker's side: its registries go to the primary, and a scrape gets the whole cluster's metrics. */
export interface ClusterMetrics {
  /** These registries are what the primary gathers from this worker. */
  share: (registries: Registry[]) => void
  /** Every worker's metrics, aggregated by the primary. */
  gather: () => Promise<string>
}

/** In the primary: answers the workers' requests for the whole cluster's metrics. */
export function serveClusterMetrics (): void {
  const aggregator = new AggregatorRegistry()
  cluster.on('message', (worker, message: Partial<Request> | null) => {
    if (message?.type !== REQUEST || typeof message.id !== 'number') return
    const id = message.id
    const answer = (a: Answer) => {
      try { worker.send(a) } catch { /* the worker that asked is gone */ }
    }
    aggregator.clusterMetrics().then(
      text => answer({ type: ANSWER, id, text }),
      (err: Error) => answer({ type: ANSWER, id, error: err.message })
    )
  })
}

/** In a worker: what the app's metrics use to answer a scrape for the whole cluster. */
export function workerMetrics (): ClusterMetrics {
  let next = 0
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (err: Error) => void; timer: NodeJS.Timeout }>()
  process.on('message', (message: Partial<Answer> | null) => {
    if (message?.type !== ANSWER || typeof message.id !== 'number') return
    const w = waiting.get(message.id)
    if (!w) return
    waiting.delete(message.id)
    clearTimeout(w.timer)
    if (typeof message.text === 'string') w.resolve(message.text)
    else w.reject(new Error(`the primary could not gather the metrics: ${message.error ?? 'no answer'}`))
  })
  return {
    share: (registries) => {
      AggregatorRegistry.setRegistries(registries)
      // its constructor makes this worker answer the primary's requests for its metrics
      new AggregatorRegistry() // eslint-disable-line no-new
    },
    gather: () => new Promise((resolve, reject) => {
      const id = next++
      const timer = setTimeout(() => {
        waiting.delete(id)
        reject(new Error(`the primary did not answer within ${CLUSTER_METRICS_TIMEOUT_MS} ms`))
      }, CLUSTER_METRICS_TIMEOUT_MS)
      waiting.set(id, { resolve, reject, timer })
      if (!process.send?.({ type: REQUEST, id } satisfies Request)) {
        // (false only when the channel is gone or backed up; a backed-up message still goes)
        if (!process.connected) {
          waiting.delete(id)
          clearTimeout(timer)
          reject(new Error('not connected to the primary'))
        }
      }
    })
  }
}
