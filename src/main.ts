// Starts kerf on the embedded default: SQLite in the data directory, the compute pool in
// this process, no other service. Prints the address and the development API key.
import os from 'node:os';
import pino from 'pino';
import { AccountStore } from './accounts/accounts.js';
import { ensureDevAccount } from './accounts/dev-account.js';
import { Metering } from './accounts/metering.js';
import { MemoryRateLimiter } from './accounts/rate-limit.js';
import { buildApp } from './api/app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/sqlite.js';
import { Dispatcher } from './jobs/dispatcher.js';
import { SqliteJobStore } from './jobs/sqlite-store.js';
import { createMetrics } from './metrics.js';
import { EnginePool } from './pool/pool.js';

async function main() {
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  const db = openDatabase(config.dataDir);
  const accounts = new AccountStore(db, { ratePerMinute: config.defaultRatePerMinute, monthlyCalls: config.defaultMonthlyCalls });
  const metering = new Metering(db);
  const jobs = new SqliteJobStore(db, config.retentionMs);
  const metrics = createMetrics();
  const pool = new EnginePool(config.poolThreads, config.abortGraceMs);
  const owner = `${os.hostname()}:${process.pid}`;
  const dispatcher = new Dispatcher(jobs, pool, metering, metrics, log.child({ component: 'dispatcher' }), {
    owner,
    budgetMs: config.jobBudgetMs,
    minOffcut: config.minOffcut,
    maxAttempts: config.maxAttempts,
  });
  const dev = ensureDevAccount(accounts, config.dataDir, config.devApiKey);
  const app = await buildApp({ config, accounts, metering, limiter: new MemoryRateLimiter(), jobs, dispatcher, pool, metrics }, log);

  await dispatcher.start();
  const sweeper = setInterval(() => void jobs.expire().catch((err) => log.error({ err }, 'expiry sweep failed')), 60_000);
  sweeper.unref();
  await app.listen({ host: config.host, port: config.port });
  const address = `http://${config.host}:${(app.server.address() as { port: number }).port}`;
  process.stdout.write(`\nkerf is listening on ${address}\n  API key (development account): ${dev.apiKey}\n  API docs: ${address}/docs\n\n`);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: draining requests and running jobs');
    clearInterval(sweeper);
    await app.close();
    await dispatcher.stop();
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
