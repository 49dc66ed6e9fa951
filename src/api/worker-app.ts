// A worker process (KERF_ROLE=worker) serves no API: only /health and /metrics, so an operator
// watches its pool and the shared queue the same way as on an API node, with the same
// request ids, error bodies, answer counts and logging as the API node.
import Fastify from 'fastify';
import type { Logger } from 'pino';
import { errorAnswers } from './plugins/errors.js';
import { answerMetrics } from './plugins/metrics.js';
import { requestId } from './plugins/request-id.js';
import { requestLogging } from './plugins/request-log.js';
import { opsRoutes } from './routes/ops.js';
import type { Services } from './services.js';

export async function buildWorkerApp(services: Pick<Services, 'metrics' | 'pool' | 'jobs'>, logger: Logger) {
  const app = Fastify({ logger: false });
  await app.register(requestLogging, { logger });
  await app.register(requestId);
  await app.register(answerMetrics, { metrics: services.metrics });
  await app.register(errorAnswers);
  await app.register(opsRoutes, { services });
  return app;
}
