// The Fastify application: error handling, request ids, and one plugin per endpoint family.
import crypto from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import type { Logger } from 'pino';
import { LIMITS } from '../schema/request.js';
import { errorBody, handleError } from './errors.js';
import { accountRoutes } from './routes/account.js';
import { analysisRoutes } from './routes/analysis.js';
import { calculateRoutes } from './routes/calculate.js';
import { docsRoutes } from './routes/docs.js';
import { exportRoutes } from './routes/export.js';
import { legacyRoutes } from './routes/legacy.js';
import { opsRoutes } from './routes/ops.js';
import { resultRoutes } from './routes/result.js';
import type { Services } from './services.js';

export async function buildApp(services: Services, logger: Logger) {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: LIMITS.bodyBytes,
    genReqId: (request) => (request.headers['x-request-id'] as string | undefined)?.slice(0, 64) || crypto.randomUUID(),
    // Request lines are logged by the onResponse hook below, for the calls worth a line.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => reply.code(404).send(errorBody(`No route ${request.method} ${request.url.split('?')[0]}`)));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    services.metrics.httpRequests.labels(request.routeOptions.url ?? 'unmatched', String(reply.statusCode)).inc();
    if (reply.statusCode >= 500 || request.routeOptions.url === '/v3/calculate') {
      request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    }
  });
  await app.register(docsRoutes);
  await app.register(async (scope) => calculateRoutes(scope, services));
  await app.register(async (scope) => analysisRoutes(scope, services));
  await app.register(async (scope) => resultRoutes(scope, services));
  await app.register(async (scope) => exportRoutes(scope, services));
  await app.register(async (scope) => opsRoutes(scope, services));
  await app.register(async (scope) => accountRoutes(scope, services));
  await app.register(legacyRoutes);
  return app;
}
