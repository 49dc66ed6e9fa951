// Request ids: a caller's x-request-id is kept (up to 64 characters); ours are a random
// per-process prefix and a counter, unique across restarts and nodes and cheaper than a UUID.
// Every answer names its id in x-request-id; log lines and 500 bodies carry the same id.
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

export const requestId = fp(async (app) => {
  const prefix = `${crypto.randomBytes(6).toString('hex')}-`;
  let count = 0;
  app.setGenReqId((raw) => (raw.headers['x-request-id'] as string | undefined)?.slice(0, 64) || prefix + (++count).toString(36));
  // Set as the call arrives, so errors and 404s carry it too, with no onSend pass per answer.
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    reply.header('x-request-id', request.id);
    done();
  });
}, { name: 'kerf-request-id' });
