// The OpenAPI document at /openapi.json and a browsable rendering at /docs; both public. The
// document is made by @fastify/swagger from the routes (see api/contract.ts).
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export async function docsRoutes(app: FastifyInstance) {
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', async () => app.swagger());
}
