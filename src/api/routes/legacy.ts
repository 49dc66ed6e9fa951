// /v1 and /v2 paths: an error body that names the /v3 path to use instead.
import type { FastifyInstance } from 'fastify';
import { errorBody } from '../errors.js';

export async function legacyRoutes(app: FastifyInstance) {
  for (const version of ['v1', 'v2']) {
    app.all(`/${version}/*`, async (request, reply) => {
      const rest = (request.params as { '*': string })['*'];
      const path = `/v3/${rest}`.replace(/\/+$/, '');
      return reply.code(404).send(errorBody(
        `API ${version} is not served here; use ${path} (API v3)`,
        { requestedPath: request.url.split('?')[0], use: path },
      ));
    });
  }
}
