// GET /v3/result/ready and GET /v3/result. A job of another account answers exactly like one
// that does not exist yet (404), so nothing leaks across accounts.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { failedJobBody, resultRecord } from '../../schema/result.js';
import { accountOf, authenticate } from '../auth.js';
import { finishedJob, jobQuery } from '../job-answers.js';
import { invalid, json, noBody, notReady, unauthorized } from '../responses.js';
import type { Services } from '../services.js';

export async function resultRoutes(app: FastifyInstance, services: Services) {
  const onRequest = authenticate(services.accounts);
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get('/v3/result/ready', {
    schema: {
      operationId: 'getResultReady',
      tags: ['calculation'],
      summary: 'Is the job finished?',
      description: 'Answers with a status and no body. Poll every 2 to 3 seconds; back off on 429.',
      querystring: jobQuery,
      response: {
        200: noBody('Finished (done or failed): fetch GET /v3/result.'),
        404: noBody('Not finished yet, or no such job for this account.'),
        410: noBody('Expired and gone.'),
        ...invalid('id is not a job id;'),
        ...unauthorized,
      },
    },
    onRequest,
  }, async (request, reply) => {
    const state = await services.jobs.state(request.query.id, accountOf(request).id);
    const status = state === 'done' || state === 'failed' ? 200 : state === 'expired' ? 410 : 404;
    return reply.code(status).send();
  });

  typed.get('/v3/result', {
    schema: {
      operationId: 'getResult',
      tags: ['calculation'],
      summary: 'Fetch the result record',
      querystring: jobQuery,
      response: {
        200: json('The result record, the same body the job.completed webhook carries.', resultRecord),
        ...invalid('id is not a job id;'),
        ...unauthorized,
        ...notReady,
        422: json('The job failed: the same body the job.failed webhook carries, plus the version.', failedJobBody),
      },
    },
    onRequest,
  }, async (request, reply) => {
    const { id } = request.query;
    const job = finishedJob(id, await services.jobs.get(id, accountOf(request).id));
    if (job.state === 'failed') return reply.code(422).send({ statusCode: 422, message: job.error ?? 'the calculation failed', version: '3' });
    return reply.type('application/json').send(job.result);
  });
}
