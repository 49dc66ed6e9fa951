// Per-request logging without Fastify's logger. Given a logger, Fastify builds a child logger
// and attaches response listeners on every request, which was a fifth of the readiness
// endpoint's CPU; kerf runs Fastify without one and makes a child only for a line worth writing.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

declare module 'fastify' {
  interface FastifyInstance {
    serviceLog: Logger;
  }
}

export function attachServiceLog(app: FastifyInstance, logger: Logger) {
  app.decorate('serviceLog', logger);
}

/** The service logger bound to this request's id. */
export function requestLog(request: FastifyRequest): Logger {
  return request.server.serviceLog.child({ reqId: request.id });
}
