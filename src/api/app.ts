// The Fastify application: one plugin per concern (plugins/), then the route families
// (routes/). The API's families sit in one scope behind the auth plugin; the account page,
// docs, operator endpoints and legacy paths are outside it.
import Fastify from 'fastify';
import type { Logger } from 'pino';
import { LIMITS } from '../schema/request.js';
import { authentication } from './plugins/auth.js';
import { contract } from './plugins/contract.js';
import { errorAnswers } from './plugins/errors.js';
import { answerMetrics } from './plugins/metrics.js';
import { requestId } from './plugins/request-id.js';
import { requestLogging } from './plugins/request-log.js';
import { accountRoutes } from './routes/account.js';
import { analysisRoutes } from './routes/analysis.js';
import { calculateRoutes } from './routes/calculate.js';
import { docsRoutes } from './routes/docs.js';
import { exportRoutes } from './routes/export.js';
import { legacyRoutes } from './routes/legacy.js';
import { opsRoutes } from './routes/ops.js';
import { resultRoutes } from './routes/result.js';
import type { Services } from './services.js';

export async function buildApp(services: Services, logger: Logger) {
  // No Fastify logger: see plugins/request-log.ts.
  const app = Fastify({ logger: false, bodyLimit: LIMITS.bodyBytes });
  await app.register(requestLogging, { logger });
  await app.register(requestId);
  await app.register(answerMetrics, { metrics: services.metrics });
  await app.register(errorAnswers);
  await app.register(contract);
  await app.register(docsRoutes);
  await app.register(async (api) => {
    await api.register(authentication, { accounts: services.accounts });
    await api.register(calculateRoutes, { services });
    await api.register(analysisRoutes, { services });
    await api.register(resultRoutes, { services });
    await api.register(exportRoutes, { services });
  });
  await app.register(opsRoutes, { services });
  await app.register(accountRoutes, { services });
  await app.register(legacyRoutes);
  return app;
}
