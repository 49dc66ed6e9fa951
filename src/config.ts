// Every operator setting, read once from the environment. Defaults are the embedded
// single-machine service that `make run` starts.
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_SEARCH_MS } from './engine/common/search-policy.js';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** Known key for the development account (scripts and benchmarks drive the service with it). */
  devApiKey?: string;
  /** Pool threads; defaults to the number of cores. */
  poolThreads: number;
  /** Budget of one calculation in milliseconds; the engine returns its best layout by then. */
  jobBudgetMs: number;
  /** Time budget of one model analysis (POST /v3/model/analysis), in ms. */
  analysisBudgetMs: number;
  /** KERF_TEST_FAULTS: pool threads run the test-only entry that injects faults (src/pool/fault-worker.ts). */
  testFaults: boolean;
  /**
   * Ceiling on a search that runs by the default policy (no saw.options.searchTime): it
   * stops earlier when it stalls or meets its lower bound, and never passes jobBudgetMs.
   */
  defaultSearchMs: number;
  /** Extra time past the budget before the pool replaces a runaway worker. */
  abortGraceMs: number;
  /** Most jobs of one account running at once (embedded: in this pool; Redis: across all workers); 0 for no cap. */
  accountThreads: number;
  /** How often a crashed job is tried before it fails. */
  maxAttempts: number;
  /** How long finished jobs stay readable before they answer 410. */
  retentionMs: number;
  /** Defaults for new accounts. */
  defaultRatePerMinute: number;
  /** The sliding window the per-minute rate is measured over (a minute; tests shorten it). */
  rateWindowMs: number;
  defaultMonthlyCalls: number;
  /** Smallest leftover reported as an offcut, in request units (each side). */
  minOffcut: number;
  logLevel: string;
  /** Webhook deliveries may go to loopback (development, tests) or private addresses. */
  webhookAllowLoopback: boolean;
  webhookAllowPrivate: boolean;
  /** Webhook deliveries in flight at once from this process, in all and to one endpoint (host). */
  webhookConcurrency: number;
  webhookEndpointConcurrency: number;
  /** Endpoint health thresholds of account-default webhook URLs. */
  webhookWarnAfterMs: number;
  webhookDisableAfterMs: number;
  /** SMTP server for e-mail (smtp://user:pass@host:port); without one mail goes to <data dir>/mail. */
  smtpUrl?: string;
  mailFrom: string;
  /** The address users reach the service at, for links in e-mails. */
  publicUrl?: string;
  /** Redis for several processes and machines (jobs, queue, outbox, counters); unset = embedded. */
  redisUrl?: string;
  /** Key prefix in Redis, so several deployments (or test runs) share one server. */
  redisPrefix: string;
  /** What this process does with Redis: serve the API, run jobs, or both. */
  role: ProcessRole;
  /** How long a worker's claim on a job lasts without renewal: a dead worker's job is re-run after it. */
  redisLockMs: number;
}

export type ProcessRole = 'api' | 'worker' | 'all';

const flag = (value: string | undefined) => value === '1' || value === 'true';

/** A setting the service cannot start with: main prints its message alone, no stack. */
export class ConfigError extends Error {}

/** Plain decimals only: Number() would also take "0x10", "1e3" and " 5 ". */
const DECIMAL = /^\d+(\.\d+)?$/;

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!DECIMAL.test(raw)) throw new ConfigError(`${name} must be a non-negative number, got "${raw}"`);
  return Number(raw);
}

/** A time limit: 0 would end every job before its first layout. */
function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!DECIMAL.test(raw) || Number(raw) === 0) throw new ConfigError(`${name} must be a number of milliseconds more than 0, got "${raw}"`);
  return Number(raw);
}

export function loadConfig(env = process.env): Config {
  return {
    host: env.HOST ?? '127.0.0.1',
    port: int(env, 'PORT', 8080),
    dataDir: path.resolve(env.KERF_DATA_DIR ?? '.data'),
    devApiKey: env.KERF_DEV_API_KEY || undefined,
    poolThreads: Math.max(1, int(env, 'KERF_POOL_THREADS', os.availableParallelism())),
    jobBudgetMs: positive(env, 'KERF_JOB_BUDGET_MS', 30_000),
    analysisBudgetMs: positive(env, 'KERF_ANALYSIS_BUDGET_MS', 30_000),
    testFaults: flag(env.KERF_TEST_FAULTS),
    defaultSearchMs: positive(env, 'KERF_DEFAULT_SEARCH_MS', DEFAULT_SEARCH_MS),
    abortGraceMs: int(env, 'KERF_ABORT_GRACE_MS', 5_000),
    maxAttempts: Math.max(1, int(env, 'KERF_MAX_ATTEMPTS', 3)),
    accountThreads: int(env, 'KERF_ACCOUNT_THREADS', 0),
    retentionMs: int(env, 'KERF_RETENTION_SECONDS', 7 * 24 * 3600) * 1000,
    defaultRatePerMinute: int(env, 'KERF_RATE_PER_MINUTE', 120),
    rateWindowMs: Math.max(1, int(env, 'KERF_RATE_WINDOW_SECONDS', 60)) * 1000,
    defaultMonthlyCalls: int(env, 'KERF_MONTHLY_CALLS', 100_000),
    minOffcut: int(env, 'KERF_MIN_OFFCUT', 50),
    logLevel: env.KERF_LOG_LEVEL ?? 'info',
    webhookAllowLoopback: flag(env.KERF_WEBHOOK_ALLOW_LOOPBACK),
    webhookAllowPrivate: flag(env.KERF_WEBHOOK_ALLOW_PRIVATE),
    webhookConcurrency: Math.max(1, int(env, 'KERF_WEBHOOK_CONCURRENCY', 256)),
    webhookEndpointConcurrency: Math.max(1, int(env, 'KERF_WEBHOOK_ENDPOINT_CONCURRENCY', 4)),
    webhookWarnAfterMs: int(env, 'KERF_WEBHOOK_WARN_HOURS', 72) * 3_600_000,
    webhookDisableAfterMs: int(env, 'KERF_WEBHOOK_DISABLE_HOURS', 120) * 3_600_000,
    smtpUrl: env.KERF_SMTP_URL || undefined,
    mailFrom: env.KERF_MAIL_FROM ?? 'kerf <no-reply@kerf.local>',
    publicUrl: env.KERF_PUBLIC_URL || undefined,
    redisUrl: env.KERF_REDIS_URL || undefined,
    redisPrefix: env.KERF_REDIS_PREFIX || 'kerf:',
    role: processRole(env.KERF_ROLE, env.KERF_REDIS_URL),
    redisLockMs: Math.max(1000, int(env, 'KERF_REDIS_LOCK_MS', 30_000)),
  };
}

/** Separate API and worker processes only make sense when they share Redis. */
function processRole(raw: string | undefined, redisUrl: string | undefined): ProcessRole {
  const role = raw || 'all';
  if (role !== 'api' && role !== 'worker' && role !== 'all') throw new ConfigError(`KERF_ROLE must be api, worker or all, got "${raw}"`);
  if (role !== 'all' && !redisUrl) throw new ConfigError(`KERF_ROLE=${role} needs KERF_REDIS_URL: without Redis one process does everything`);
  return role;
}
