// Starts kerf on the embedded default: SQLite in the data directory, the compute pool in
// this process, no other service. Prints the address and the development API key.
import os from 'node:os';
import pino from 'pino';
import { SqliteAccountStore } from './storage/accounts/sqlite.js';
import { type AccountStore } from './storage/accounts/store.js';
import { ensureDevAccount } from './accounts/dev-account.js';
import { SqliteMetering } from './storage/metering/sqlite.js';
import { MemoryRateLimiter } from './storage/rate-limit/memory.js';
import { SqliteSessions } from './storage/sessions/sqlite.js';
import { type Sessions } from './storage/sessions/store.js';
import { buildApp } from './api/app.js';
import { loadConfig, type Config } from './config.js';
import { openDatabase } from './storage/sqlite/db.js';
import { Dispatcher } from './jobs/dispatcher.js';
import type { JobStore } from './storage/jobs/store.js';
import { SqliteJobStore } from './storage/jobs/sqlite.js';
import { createMetrics, type Metrics } from './metrics.js';
import { EnginePool } from './pool/pool.js';
import { systemClock } from './clock.js';
import { Deliverer } from './webhooks/deliverer.js';
import { SqliteEndpointHealth } from './storage/health/sqlite.js';
import { type EndpointHealth } from './storage/health/store.js';
import { createMailer } from './webhooks/mailer.js';
import { SqliteOutbox } from './storage/outbox/sqlite.js';
import { openRedisServices } from './storage/redis/services.js';
import { buildWorkerApp } from './api/worker-app.js';

async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const db = openDatabase(config.dataDir);
  const owner = `${os.hostname()}:${process.pid}`;
  // With KERF_REDIS_URL everything nodes share is in Redis (queue, jobs, outbox, counters,
  // accounts, keys, sessions, endpoint health); the data directory holds only local files.
  const redis = config.redisUrl ? await openRedisServices({ ...config, redisUrl: config.redisUrl }, owner, log) : undefined;
  const servesApi = config.role !== 'worker';
  const runsJobs = config.role !== 'api';
  const accounts: AccountStore = redis?.accounts
    ?? new SqliteAccountStore(db, { ratePerMinute: config.defaultRatePerMinute, monthlyCalls: config.defaultMonthlyCalls });
  const metering = redis?.metering ?? new SqliteMetering(db);
  const outbox = new SqliteOutbox(db);
  const jobs = redis?.jobs ?? new SqliteJobStore(db, { retentionMs: config.retentionMs, outbox, accountThreads: config.accountThreads });
  const metrics = createMetrics();
  const pool = new EnginePool(config.poolThreads, config.abortGraceMs);
  const health: EndpointHealth = redis?.health
    ?? new SqliteEndpointHealth(db, { warnAfterMs: config.webhookWarnAfterMs, disableAfterMs: config.webhookDisableAfterMs });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: log.child({ component: 'mail' }) });
  const publicUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  const deliverer = new Deliverer(redis?.outbox ?? outbox, accounts, health, mailer, systemClock, log.child({ component: 'webhooks' }), {
    policy: { allowLoopback: config.webhookAllowLoopback, allowPrivate: config.webhookAllowPrivate },
    concurrency: config.webhookConcurrency,
    perEndpoint: config.webhookEndpointConcurrency,
    accountPageUrl: `${publicUrl}/account`,
  });
  const dispatcher = new Dispatcher(jobs, pool, metering, accounts, metrics, log.child({ component: 'dispatcher' }), {
    owner,
    budgetMs: config.jobBudgetMs,
    minOffcut: config.minOffcut,
    maxAttempts: config.maxAttempts,
    pollMs: redis ? 100 : undefined,
    // Deliveries go out from the API nodes' loops (one place to watch egress); a worker node wakes them.
    onDelivery: servesApi ? () => deliverer.wake() : () => void redis?.outbox.announce().catch((err) => log.warn({ err }, 'could not wake the delivery loops')),
  });
  if (!servesApi) return runWorkerNode(config, { jobs, pool, metrics, dispatcher, log, owner, closeDb: () => db.close(), closeAccounts: () => redis?.accounts.close() });
  const dev = await ensureDevAccount(accounts, config.dataDir, config.devApiKey);
  const sessions: Sessions = redis?.sessions ?? new SqliteSessions(db);
  const app = await buildApp({
    config, accounts, metering, limiter: redis?.limiter ?? new MemoryRateLimiter(config.rateWindowMs), jobs, dispatcher, pool, metrics, sessions,
    outbox: redis?.outbox ?? outbox, health, deliverer,
  }, log);

  // An API node never claims jobs: a stopped dispatcher ignores the kick after each submit.
  if (runsJobs) await dispatcher.start();
  else await dispatcher.stop();
  deliverer.start();
  const stopListening = await redis?.outbox.listen(() => deliverer.wake(), (err) => log.warn({ err }, 'delivery wake-ups: redis error'));
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
    await redis?.accounts.close();
    await jobs.close();
    await pool.close();
    db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

/** KERF_ROLE=worker: runs jobs from the shared queue; serves only /health and /metrics. */
async function runWorkerNode(config: Config, node: {
  jobs: JobStore; pool: EnginePool; metrics: Metrics; dispatcher: Dispatcher; log: pino.Logger; owner: string; closeDb: () => void;
  closeAccounts: () => Promise<void> | undefined;
}) {
  const { jobs, pool, metrics, dispatcher, log } = node;
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
    await node.closeAccounts();
    await jobs.close();
    await pool.close();
    node.closeDb();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`kerf failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
