// The anchor for bench/api: a bare Fastify route with the service's Fastify options (no
// logger, the same body limit), answering like the readiness endpoint (a status, no body).
import Fastify from 'fastify';

// 8 MB is LIMITS.bodyBytes (src/schema/request.ts), written out so the anchor loads nothing of kerf.
const app = Fastify({ logger: false, bodyLimit: 8 * 1024 * 1024 });
app.get('/bare', async (_request, reply) => reply.code(200).send());
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on http://127.0.0.1:${(app.server.address() as { port: number }).port}\n`);
