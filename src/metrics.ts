// Prometheus metrics: what an operator watches to size the pool and spot trouble.
import client from 'prom-client';

export function createMetrics() {
  const registry = new client.Registry();
  const answerTallies: { labels: { route: string; status: string }; count: number }[] = [];
  client.collectDefaultMetrics({ register: registry });
  return {
    registry,
    poolThreads: new client.Gauge({ name: 'kerf_pool_threads', help: 'Compute threads in the pool', registers: [registry] }),
    poolBusy: new client.Gauge({ name: 'kerf_pool_threads_busy', help: 'Compute threads running a task', registers: [registry] }),
    queueDepth: new client.Gauge({ name: 'kerf_queue_depth', help: 'Jobs waiting for a compute thread', registers: [registry] }),
    jobDuration: new client.Histogram({
      name: 'kerf_job_duration_seconds',
      help: 'Compute time of finished jobs by outcome',
      labelNames: ['outcome'] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers: [registry],
    }),
    jobRetries: new client.Counter({ name: 'kerf_job_retries_total', help: 'Jobs re-queued after their worker died', registers: [registry] }),
    httpRequests: new client.Counter({
      name: 'kerf_http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['route', 'status'] as const,
      registers: [registry],
      collect() {
        for (const tally of answerTallies) {
          if (tally.count > 0) this.inc(tally.labels, tally.count);
          tally.count = 0;
        }
      },
    }),
    /**
     * A plain counter for one route and status, handed to kerf_http_requests_total when
     * scraped: prom-client's labelled inc hashes the labels on every call, a hot-path cost.
     */
    answerTally(route: string, status: number): AnswerTally {
      const tally = { labels: { route, status: String(status) }, count: 0 };
      answerTallies.push(tally);
      return tally;
    },
  };
}

export interface AnswerTally {
  count: number;
}

export type Metrics = ReturnType<typeof createMetrics>;
