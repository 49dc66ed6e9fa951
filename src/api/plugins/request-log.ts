// Per-request logging without Fastify's logger. Given a logger, Fastify builds a child logger
// and attaches response listeners on every request, which was a fifth of the readiness
// endpoint's CPU; kerf runs Fastify without one and makes a child only for a line worth
// writing: calls that change something (one line with their outcome) and errors. Reads stay silent.
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';

declare module 'fastify' {
  interface FastifyInstance {
    serviceLog: Logger;
  }
}

export const requestLogging = fp<{ logger: Logger }>(async (app, { logger }) => {
  app.decorate('serviceLog', logger);
  app.addHook('onRoute', (route) => {
    // Only on those routes: any onResponse hook makes Fastify listen on every response of its routes.
    if (route.method === 'GET' || route.method === 'HEAD') return;
    const onResponse = Array.isArray(route.onResponse) ? route.onResponse : route.onResponse ? [route.onResponse] : [];
    route.onResponse = [...onResponse, logAnswer];
  });
}, { name: 'kerf-request-log' });

/** The service logger bound to this request's id. */
export function requestLog(request: FastifyRequest): Logger {
  return request.server.serviceLog.child({ reqId: request.id });
}

function logAnswer(request: FastifyRequest, reply: FastifyReply, done: () => void) {
  requestLog(request).info({ method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  done();
}
