// Operator endpoints: health and Prometheus metrics.
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';

export async function opsRoutes(app: FastifyInstance, { services }: { services: Pick<Services, 'metrics' | 'pool' | 'jobs'> }) {
  app.get('/health', async () => ({ status: 'ok' }));
  app.get('/metrics', async (_request, reply) => {
    services.metrics.poolThreads.set(services.pool.threads);
    services.metrics.poolBusy.set(services.pool.busy);
    services.metrics.queueDepth.set(await services.jobs.queueDepth());
    return reply.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
  });
}
