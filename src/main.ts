// Starts kerf on the embedded default: SQLite in the data directory, the compute pool in
// this process, no other service. Prints the address and the development API key.
import os from 'node:os';
import pino from 'pino';
import { AccountStore } from './accounts/accounts.js';
import { ensureDevAccount } from './accounts/dev-account.js';
import { Metering } from './accounts/metering.js';
import { MemoryRateLimiter } from './accounts/rate-limit.js';
import { Sessions } from './accounts/sessions.js';
import { buildApp } from './api/app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/sqlite.js';
import { Dispatcher } from './jobs/dispatcher.js';
import { SqliteJobStore } from './jobs/sqlite-store.js';
import { createMetrics } from './metrics.js';
import { EnginePool } from './pool/pool.js';
import { systemClock } from './clock.js';
import { Deliverer } from './webhooks/deliverer.js';
import { EndpointHealth } from './webhooks/health.js';
import { createMailer } from './webhooks/mailer.js';
import { Outbox } from './webhooks/outbox.js';

async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const db = openDatabase(config.dataDir);
  const accounts = new AccountStore(db, { ratePerMinute: config.defaultRatePerMinute, monthlyCalls: config.defaultMonthlyCalls });
  const metering = new Metering(db);
  const outbox = new Outbox(db);
  const jobs = new SqliteJobStore(db, config.retentionMs, outbox);
  const metrics = createMetrics();
  const pool = new EnginePool(config.poolThreads, config.abortGraceMs);
  const owner = `${os.hostname()}:${process.pid}`;
  const health = new EndpointHealth(db, { warnAfterMs: config.webhookWarnAfterMs, disableAfterMs: config.webhookDisableAfterMs });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: log.child({ component: 'mail' }) });
  const publicUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  const deliverer = new Deliverer(outbox, accounts, health, mailer, systemClock, log.child({ component: 'webhooks' }), {
    policy: { allowLoopback: config.webhookAllowLoopback, allowPrivate: config.webhookAllowPrivate },
    accountPageUrl: `${publicUrl}/account`,
  });
  const dispatcher = new Dispatcher(jobs, pool, metering, accounts, metrics, log.child({ component: 'dispatcher' }), {
    owner,
    budgetMs: config.jobBudgetMs,
    minOffcut: config.minOffcut,
    maxAttempts: config.maxAttempts,
    onDelivery: () => void deliverer.tick(),
  });
  const dev = ensureDevAccount(accounts, config.dataDir, config.devApiKey);
  const sessions = new Sessions(db);
  const app = await buildApp({
    config, accounts, metering, limiter: new MemoryRateLimiter(), jobs, dispatcher, pool, metrics, sessions, outbox, health, deliverer,
  }, log);

  await dispatcher.start();
  deliverer.start();
  const sweeper = setInterval(() => void jobs.expire().catch((err) => log.error({ err }, 'expiry sweep failed')), 60_000);
  sweeper.unref();
  await app.listen({ host: config.host, port: config.port });
  const address = `http://${config.host}:${(app.server.address() as { port: number }).port}`;
  const link = `${config.publicUrl ?? address}/account/login/link?token=${sessions.issueLink(dev.accountId)}`;
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
    await deliverer.stop();
    await pool.close();
    db.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error) => {
  process.stderr.write(`kerf failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
