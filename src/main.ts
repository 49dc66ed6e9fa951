// Starts kerf on the embedded default: SQLite in the data directory, the compute pool in
// this process, no other service. Prints the address and the development API key.
import './warm-next-tick.js';
import os from 'node:os';
import pino from 'pino';
import { ensureDevAccount } from './accounts/dev-account.js';
import { buildApp } from './api/app.js';
import { buildWorkerApp } from './api/worker-app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { Dispatcher } from './jobs/dispatcher.js';
import { createMetrics, type Metrics } from './metrics.js';
import { EnginePool } from './pool/pool.js';
import { systemClock } from './clock.js';
import { openStorage, type ServerStorage } from './storage/open.js';
import { Deliverer } from './webhooks/deliverer.js';
import { createMailer } from './webhooks/mailer.js';

async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const owner = `${os.hostname()}:${process.pid}`;
  // With KERF_REDIS_URL everything nodes share is in Redis (queue, jobs, outbox, counters,
  // accounts, keys, sessions, endpoint health); the data directory holds only local files.
  const storage = await openStorage(config, { log, jobs: { owner } });
  const { accounts, apiKeys, metering, outbox, jobs, acceptJob, health, sessions, limiter, deliveryWakeups } = storage;
  const shared = Boolean(config.redisUrl);
  const servesApi = config.role !== 'worker';
  const runsJobs = config.role !== 'api';
  const metrics = createMetrics();
  const pool = new EnginePool(config.poolThreads, config.abortGraceMs, config.testFaults);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: log.child({ component: 'mail' }) });
  const publicUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  const deliverer = new Deliverer(outbox, accounts, health, mailer, systemClock, log.child({ component: 'webhooks' }), {
    policy: { allowLoopback: config.webhookAllowLoopback, allowPrivate: config.webhookAllowPrivate },
    concurrency: config.webhookConcurrency,
    perEndpoint: config.webhookEndpointConcurrency,
    accountPageUrl: `${publicUrl}/account`,
  });
  const dispatcher = new Dispatcher(jobs, pool, metering, accounts, metrics, log.child({ component: 'dispatcher' }), {
    owner,
    budgetMs: config.jobBudgetMs,
    defaultSearchMs: config.defaultSearchMs,
    minOffcut: config.minOffcut,
    maxAttempts: config.maxAttempts,
    pollMs: shared ? 100 : undefined,
    // Deliveries go out from the API nodes' loops (one place to watch egress); a worker node wakes them.
    onDelivery: servesApi ? () => deliverer.wake() : () => void deliveryWakeups?.announce().catch((err) => log.warn({ err }, 'could not wake the delivery loops')),
  });
  if (!servesApi) return runWorkerNode(config, { storage, pool, metrics, dispatcher, log, owner });
  const dev = await ensureDevAccount(accounts, apiKeys, config.dataDir, config.devApiKey);
  const app = await buildApp({
    config, accounts, apiKeys, metering, limiter, jobs, acceptJob, dispatcher, pool, metrics, sessions, outbox, health, deliverer,
  }, log);

  // An API node never claims jobs: a stopped dispatcher ignores the kick after each submit.
  if (runsJobs) await dispatcher.start();
  else await dispatcher.stop();
  deliverer.start();
  const stopListening = await deliveryWakeups?.listen(() => deliverer.wake(), (err) => log.warn({ err }, 'delivery wake-ups: redis error'));
  const sweeper = setInterval(() => void jobs.expire().catch((err) => log.error({ err }, 'expiry sweep failed')), 60_000);
  sweeper.unref();
  await app.listen({ host: config.host, port: config.port });
  const address = `http://${config.host}:${(app.server.address() as { port: number }).port}`;
  const link = `${config.publicUrl ?? address}/account/login/link?token=${await sessions.issueLink(dev.accountId)}`;
  process.stdout.write(`\nkerf is listening on ${address}\n  API key (development account): ${dev.apiKey}\n`
    + `  account page (one-time sign-in link, 24 h): ${link}\n  API docs: ${address}/docs\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: draining requests and running jobs');
    clearInterval(sweeper);
    await app.close();
    await dispatcher.stop();
    await stopListening?.();
    await deliverer.stop();
    await pool.close();
    await storage.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** KERF_ROLE=worker: runs jobs from the shared queue; serves only /health and /metrics. */
async function runWorkerNode(config: Config, node: {
  storage: ServerStorage; pool: EnginePool; metrics: Metrics; dispatcher: Dispatcher; log: pino.Logger; owner: string;
}) {
  const { storage, pool, metrics, dispatcher, log } = node;
  const { jobs } = storage;
  const app = await buildWorkerApp({ jobs, pool, metrics }, log);
  await dispatcher.start();
  const sweeper = setInterval(() => void jobs.expire().catch((err) => log.error({ err }, 'expiry sweep failed')), 60_000);
  sweeper.unref();
  await app.listen({ host: config.host, port: config.port });
  const address = `http://${config.host}:${(app.server.address() as { port: number }).port}`;
  process.stdout.write(`\nkerf worker ${node.owner} (${pool.threads} threads) is listening on ${address} (/health, /metrics)\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing running jobs, leaving queued ones to other workers');
    clearInterval(sweeper);
    await dispatcher.stop();
    await app.close();
    await pool.close();
    await storage.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  // A wrong setting is the operator's to mend: its message says which; anything else gets its stack.
  const detail = error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error);
  process.stderr.write(`kerf failed to start: ${detail}\n`);
  process.exit(1);
});
