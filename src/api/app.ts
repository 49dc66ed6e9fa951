// The Fastify application: error handling, request ids, and one plugin per endpoint family.
import crypto from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LIMITS } from '../schema/request.js';
import { registerContract } from './contract.js';
import { errorBody, handleError } from './errors.js';
import { accountRoutes } from './routes/account.js';
import { analysisRoutes } from './routes/analysis.js';
import { calculateRoutes } from './routes/calculate.js';
import { docsRoutes } from './routes/docs.js';
import { exportRoutes } from './routes/export.js';
import { legacyRoutes } from './routes/legacy.js';
import { opsRoutes } from './routes/ops.js';
import { resultRoutes } from './routes/result.js';
import { attachServiceLog, requestLog } from './request-log.js';
import type { AnswerTally } from '../metrics.js';
import type { Services } from './services.js';

export async function buildApp(services: Services, logger: Logger) {
  const bootId = crypto.randomBytes(6).toString('hex');
  let requestCount = 0;
  const app = Fastify({
    logger: false,
    bodyLimit: LIMITS.bodyBytes,
    // A caller's id is kept; ours are a random per-process prefix and a counter: unique across
    // restarts and nodes, and cheaper than a UUID per request.
    genReqId: (request) => (request.headers['x-request-id'] as string | undefined)?.slice(0, 64) || `${bootId}-${(++requestCount).toString(36)}`,
  });
  attachServiceLog(app, logger);
  app.setErrorHandler(handleError);
  // Each route gets its own onSend hook knowing its path: it names the request id and counts
  // the answer without reading request.routeOptions, which builds an object on every call.
  app.addHook('onRoute', (route) => {
    const onSend = Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : [];
    route.onSend = [...onSend, answerHook(route.url ?? 'unmatched', services.metrics)];
    // Calls that change something get a log line with their outcome; reads stay silent.
    if (route.method !== 'GET' && route.method !== 'HEAD') {
      const onResponse = Array.isArray(route.onResponse) ? route.onResponse : route.onResponse ? [route.onResponse] : [];
      route.onResponse = [...onResponse, logAnswer];
    }
  });
  const unmatched = answerHook('unmatched', services.metrics);
  app.setNotFoundHandler((request, reply) => {
    unmatched(request, reply.code(404), undefined, () => {});
    return reply.send(errorBody(`No route ${request.method} ${request.url.split('?')[0]}`));
  });
  await registerContract(app);
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

/** onSend for one route: the request id header and the count of answers by route and status. */
function answerHook(route: string, metrics: Services['metrics']) {
  const tallies = new Map<number, AnswerTally>();
  return (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    reply.header('x-request-id', request.id);
    const status = reply.statusCode;
    let tally = tallies.get(status);
    if (!tally) tallies.set(status, (tally = metrics.answerTally(route, status)));
    tally.count++;
    done(null, payload);
  };
}

function logAnswer(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  requestLog(request).info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  done();
}
