// GET /v3/result/ready and GET /v3/result. A job of another account answers exactly like one
// that does not exist yet (404), so nothing leaks across accounts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticate } from '../auth.js';
import { ApiError } from '../errors.js';
import type { Services } from '../services.js';

function jobId(request: FastifyRequest): number {
  const raw = (request.query as Record<string, unknown>).id;
  const id = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new ApiError(400, 'Query parameter id must be a job id (a positive integer)', { field: 'id' });
  return id;
}

export async function resultRoutes(app: FastifyInstance, services: Services) {
  const onRequest = authenticate(services.accounts);

  app.get('/v3/result/ready', { onRequest }, async (request, reply) => {
    const state = await services.jobs.state(jobId(request), request.account!.id);
    const status = state === 'done' || state === 'failed' ? 200 : state === 'expired' ? 410 : 404;
    return reply.code(status).send();
  });

  app.get('/v3/result', { onRequest }, async (request, reply) => {
    const id = jobId(request);
    const job = await services.jobs.get(id, request.account!.id);
    if (!job || job.state === 'queued' || job.state === 'running') throw new ApiError(404, `Job ${id} is not finished (or does not exist)`, { jobId: id });
    if (job.state === 'expired') throw new ApiError(410, `The result of job ${id} has expired and is gone`, { jobId: id });
    if (job.state === 'failed') return reply.code(422).send({ statusCode: 422, message: job.error ?? 'the calculation failed', version: '3' });
    return reply.type('application/json').send(job.result);
  });
}
