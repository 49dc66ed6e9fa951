// A worker process (KERF_ROLE=worker) serves no API: only /health and /metrics, so an operator
// watches its pool and the shared queue the same way as on an API node.
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import { opsRoutes } from './routes/ops.js';
import type { Services } from './services.js';

export async function buildWorkerApp(services: Pick<Services, 'metrics' | 'pool' | 'jobs'>, logger: Logger) {
  const app = Fastify({ loggerInstance: logger, logController: new LogController({ disableRequestLogging: true }) });
  await app.register(async (scope) => opsRoutes(scope, services as Services));
  return app;
}
