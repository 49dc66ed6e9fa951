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
  const bootId = crypto.randomBytes(6).toString('hex');
  let requestCount = 0;
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: LIMITS.bodyBytes,
    // A caller's id is kept; ours are a random per-process prefix and a counter: unique across
    // restarts and nodes, and cheaper than a UUID per request.
    genReqId: (request) => (request.headers['x-request-id'] as string | undefined)?.slice(0, 64) || `${bootId}-${(++requestCount).toString(36)}`,
    // Request lines are logged by the onResponse hook below, for the calls worth a line.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => reply.code(404).send(errorBody(`No route ${request.method} ${request.url.split('?')[0]}`)));
  // These two run on every request: callback style (no promise each) and one counter child per
  // route and status, looked up once, keep them off the readiness endpoint's hot path.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    done(null, payload);
  });
  const counters = new Map<string, { inc(): void }>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const key = `${route} ${reply.statusCode}`;
    let counter = counters.get(key);
    if (!counter) counters.set(key, (counter = services.metrics.httpRequests.labels(route, String(reply.statusCode))));
    counter.inc();
    if (reply.statusCode >= 500 || route === '/v3/calculate') {
      request.log.info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
    }
    done();
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
