// POST /v3/calculate: validate, queue, answer with the job id. The call is counted only once
// the job is accepted.
import type { FastifyInstance } from 'fastify';
import { calculationRequest, limitViolation, normalizeRequest } from '../../schema/request.js';
import { admitCall, authenticate } from '../auth.js';
import { ApiError, fromZod, validationError } from '../errors.js';
import type { Services } from '../services.js';

export async function calculateRoutes(app: FastifyInstance, services: Services) {
  app.post('/v3/calculate', {
    onRequest: authenticate(services.accounts),
    preHandler: admitCall(services.limiter, services.metering),
  }, async (request) => {
    const parsed = calculationRequest.safeParse(request.body);
    if (!parsed.success) throw fromZod(parsed.error);
    const overLimit = limitViolation(parsed.data);
    if (overLimit) throw new ApiError(422, overLimit);
    const normalized = normalizeRequest(parsed.data);
    if ('issues' in normalized) throw validationError(normalized.issues);
    const account = request.account!;
    const jobId = await services.jobs.submit({
      accountId: account.id,
      kind: 'calculate',
      request: JSON.stringify(normalized.request),
      webhook: normalized.request.webhook,
      accountWebhook: account.webhookUrl,
    });
    await services.metering.countCall(account.id);
    void services.dispatcher.kick();
    return { jobId };
  });
}
