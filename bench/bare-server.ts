// The anchor for bench/api: a bare Fastify route on this machine, nothing else.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async (_request, reply) => reply.code(200).send());
await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening on http://127.0.0.1:${(app.server.address() as { port: number }).port}\n`);
