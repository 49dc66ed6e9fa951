// POST /v3/calculate: validate, queue, answer with the job id. The call is counted only once
// the job is accepted.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIMITS, calculationRequest, limitViolation, normalizeRequest } from '../../schema/request.js';
import { jobAccepted } from '../../schema/result.js';
import { admitCall, refundRefused } from '../plugins/auth.js';
import { ApiError, validationError } from '../errors.js';
import { admission, failure, invalid, json, unauthorized } from '../responses.js';
import type { FamilyOptions } from '../services.js';

export async function calculateRoutes(app: FastifyInstance, { services }: FamilyOptions) {
  app.withTypeProvider<ZodTypeProvider>().post('/v3/calculate', {
    schema: {
      operationId: 'submitCalculation',
      tags: ['calculation'],
      summary: 'Submit a calculation',
      description: 'Starts an asynchronous job and answers its id at once. Poll GET /v3/result/ready every 2 to 3 seconds, then fetch GET /v3/result; or receive the result at the request\'s webhook URL (or the account\'s default one). Unknown fields are ignored anywhere in the body.',
      body: calculationRequest,
      response: {
        200: json('Accepted; poll GET /v3/result/ready with the job id.', jobAccepted),
        ...invalid('Malformed JSON, an invalid field (a missing one "is required"), or fields that do not go together (the request schema\'s rules);'),
        ...unauthorized,
        ...admission,
        413: failure(`Body over ${LIMITS.bodyBytes / 1024 / 1024} MB.`),
        415: failure('Content-Type is not application/json.'),
        422: failure(`Over ${LIMITS.partInstances.toLocaleString('en')} part instances (the sum of q) or ${LIMITS.stockRows.toLocaleString('en')} stock rows.`),
      },
    },
    // Admission before validation: a refused body still spends a place in the per-minute rate.
    preValidation: admitCall(services.limiter, services.metering),
    // Only on the calls that admit: any onResponse hook makes Fastify listen on every response of its routes.
    onResponse: refundRefused(services.limiter),
  }, async (request) => {
    const overLimit = limitViolation(request.body);
    if (overLimit) throw new ApiError(422, overLimit);
    const normalized = normalizeRequest(request.body);
    if ('issues' in normalized) throw validationError(normalized.issues);
    const { account } = request;
    const jobId = await services.acceptJob({
      accountId: account.id,
      kind: 'calculate',
      request: JSON.stringify(normalized.request),
      webhook: normalized.request.webhook,
      accountWebhook: account.webhookUrl,
    });
    void services.dispatcher.kick();
    return { jobId };
  });
}
