// GET /v3/result/ready and GET /v3/result. A job of another account answers exactly like one
// that does not exist yet (404), so nothing leaks across accounts.
import type { FastifyInstance, FastifyReply, FastifySchemaCompiler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { validatorCompiler } from '../plugins/contract.js';
import { failedJobBody, resultRecord } from '../../schema/result.js';
import { finishedJob, jobQuery } from '../job-answers.js';
import { invalid, json, noBody, notReady, unauthorized } from '../responses.js';
import type { FamilyOptions } from '../services.js';
import type { JobState } from '../../storage/jobs/store.js';

/**
 * jobQuery's validator with a fast path: a plain job id (what every poll sends) is read
 * without zod, whose parse was a noticeable share of the readiness endpoint's CPU; anything
 * else goes through the schema and answers exactly its 400.
 */
function jobQueryValidator<T>(route: Parameters<FastifySchemaCompiler<T>>[0]): ReturnType<FastifySchemaCompiler<T>> {
  const full = validatorCompiler(route as unknown as Parameters<FastifySchemaCompiler<ZodType>>[0]);
  return (data) => {
    const query = data as Record<string, unknown>;
    const id = query.id;
    // Up to 15 digits stays below Number.MAX_SAFE_INTEGER; the schema keeps only id.
    if (typeof id === 'string' && PLAIN_ID.test(id)) return { value: { id: Number(id) } };
    return full(data);
  };
}
const PLAIN_ID = /^[1-9][0-9]{0,14}$/;

/** 200 once the job is finished (done or failed), 410 expired, 404 otherwise; no body. */
function answerReady(reply: FastifyReply, state: JobState | undefined): FastifyReply {
  return reply.code(state === 'done' || state === 'failed' ? 200 : state === 'expired' ? 410 : 404).send();
}

export async function resultRoutes(app: FastifyInstance, { services }: FamilyOptions) {
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
    validatorCompiler: jobQueryValidator,
  }, (request, reply) => {
    // Not async: a finished job's state comes without a promise, and the poll answers at once.
    const state = services.jobs.state(request.query.id, request.account.id);
    if (state instanceof Promise) return state.then((settled) => answerReady(reply, settled));
    return answerReady(reply, state);
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
    validatorCompiler: jobQueryValidator,
  }, async (request, reply) => {
    const { id } = request.query;
    const job = finishedJob(id, await services.jobs.get(id, request.account.id));
    if (job.state === 'failed') return reply.code(422).send({ statusCode: 422, message: job.error ?? 'the calculation failed', version: '3' });
    return reply.type('application/json').send(job.result);
  });
}
